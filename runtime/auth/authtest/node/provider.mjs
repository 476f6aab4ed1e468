// A local OAuth 2.1 authorization server (panva oidc-provider) for mcpgen's
// auth tests. Clients get client-credentials tokens: ES256 at+jwt whose aud
// is the resource indicator; opaque tokens for the OPAQUE resource, checked
// by introspection. Settings come from the environment:
//   PORT          port of the issuer http://127.0.0.1:PORT
//   MCP_RESOURCE  the MCP server's resource URI (the default audience)
//   OTHER_RESOURCE another server's resource URI (wrong-audience tests)
//   OPAQUE_RESOURCE a resource whose tokens are opaque
//   KID           key id of the signing key (a new key at every start)
//   BACKEND_RESOURCE a backend's resource URI: client mcpgen-rs exchanges
//                 MCP tokens for tokens for it (RFC 8693), keeping the
//                 user as `sub` and naming itself in `act`; test-only policy
import { generateKeyPairSync } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { createLocalJWKSet, jwtVerify } from 'jose';

const PORT = Number(process.env.PORT || 25100);
const ISSUER = `http://127.0.0.1:${PORT}`;
const MCP = process.env.MCP_RESOURCE;
const scope = 'tools:read tools:write admin';
const resources = { [MCP]: { scope, accessTokenFormat: 'jwt' } };
if (process.env.OTHER_RESOURCE) resources[process.env.OTHER_RESOURCE] = { scope, accessTokenFormat: 'jwt' };
if (process.env.OPAQUE_RESOURCE) resources[process.env.OPAQUE_RESOURCE] = { scope, accessTokenFormat: 'opaque' };
const BACKEND = process.env.BACKEND_RESOURCE;
if (BACKEND) resources[BACKEND] = { scope: 'orders:read orders:write', accessTokenFormat: 'jwt' };
const TE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT = 'urn:ietf:params:oauth:token-type:access_token';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: process.env.KID || 'k1', use: 'sig', alg: 'ES256' };
const cc = (id, secret, scopes, grants = ['client_credentials']) =>
  ({ client_id: id, client_secret: secret, grant_types: grants, redirect_uris: [], response_types: [], scope: scopes });
const serverInfo = (ind, rs) => ({ ...rs, audience: ind, accessTokenTTL: 300, jwt: { sign: { alg: 'ES256' } } });

const provider = new Provider(ISSUER, {
  jwks: { keys: [jwk] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  scopes: ['openid', 'tools:read', 'tools:write', 'admin', 'orders:read', 'orders:write'],
  clients: [cc('mcp-reader', 'reader-secret', 'tools:read'),
            cc('mcp-admin', 'admin-secret', scope),
            cc('mcpgen-rs', 'rs-secret', 'tools:read orders:read orders:write', [TE, 'client_credentials'])],
  formats: { customizers: { jwt: async (ctx, token, jwt) => {
    if (ctx?.state?.teSubject) { jwt.payload.sub = ctx.state.teSubject; jwt.payload.act = { sub: jwt.payload.client_id }; }
  } } },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => MCP,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, ind) => {
        const rs = resources[ind];
        if (!rs) throw new errors.InvalidTarget();
        return serverInfo(ind, rs);
      },
    },
  },
});
const keys = createLocalJWKSet({ keys: [{ ...jwk, d: undefined }] });
provider.registerGrantType(TE, async (ctx) => {
  const p = ctx.oidc.params;
  if (p.subject_token_type !== AT) throw new errors.InvalidRequest('subject_token_type must be access_token');
  let c; try { ({ payload: c } = await jwtVerify(p.subject_token, keys, { issuer: ISSUER, audience: MCP })); }
  catch { throw new errors.InvalidGrant('subject_token rejected'); }
  if (!BACKEND || p.resource !== BACKEND) throw new errors.InvalidTarget();
  const rs = resources[BACKEND];
  const ok = new Set(rs.scope.split(' '));
  const granted = (p.scope || rs.scope).split(' ').filter((s) => ok.has(s)).join(' ');
  const t = new provider.ClientCredentials({ client: ctx.oidc.client, scope: granted });
  t.resourceServer = new provider.ResourceServer(BACKEND, serverInfo(BACKEND, rs));
  ctx.state.teSubject = c.sub;
  ctx.body = { access_token: await t.save(), issued_token_type: AT, token_type: 'Bearer', expires_in: t.expiration, scope: granted };
}, ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'requested_token_type', 'audience', 'resource', 'scope']);

provider.listen(PORT, '127.0.0.1', () => console.log(`listening ${ISSUER}`));
