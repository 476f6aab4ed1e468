{{- define "mcpgen.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 57 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 57 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 57 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "mcpgen.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* The labels selecting mcpgen's pods, never Redis's. */}}
{{- define "mcpgen.selector" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "mcpgen.redisSelector" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: redis
{{- end -}}

{{- define "mcpgen.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion -}}
{{- if eq $tag "latest" -}}
{{- fail "image.tag: latest is not pinned; give a version (the chart's appVersion by default) or image.digest" -}}
{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* The Redis address, when there is one. */}}
{{- define "mcpgen.redisAddr" -}}
{{- if .Values.redis.address -}}
{{- .Values.redis.address -}}
{{- else if .Values.redis.enabled -}}
{{- printf "%s-redis:6379" (include "mcpgen.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/*
The config as served: the values' text as written, or, with Redis and no
server.state of its own, with server.state.redis.addr added (the address
itself, so that validate --skip-env checks it).
*/}}
{{- define "mcpgen.config" -}}
{{- $cfg := .Values.config | required "config: the mcpgen config is required" -}}
{{- if include "mcpgen.redisAddr" . -}}
{{- $doc := fromYaml $cfg -}}
{{- if hasKey $doc "Error" -}}
{{- fail (printf "config is not YAML: %s" $doc.Error) -}}
{{- end -}}
{{- $server := $doc.server | default dict -}}
{{- if hasKey $server "state" -}}
{{- $cfg -}}
{{- else -}}
{{- $_ := set $server "state" (dict "redis" (dict "addr" (include "mcpgen.redisAddr" .))) -}}
{{- $_ := set $doc "server" $server -}}
{{- toYaml $doc -}}
{{- end -}}
{{- else -}}
{{- $cfg -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding secretEnv. */}}
{{- define "mcpgen.secretName" -}}
{{- include "mcpgen.fullname" . -}}
{{- end -}}
