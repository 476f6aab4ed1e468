// A local OAuth 2.1 authorization server (panva oidc-provider) for mcpgen's
// auth tests. Clients get client-credentials tokens: ES256 at+jwt whose aud
// is the resource indicator; opaque tokens for the OPAQUE resource, checked
// by introspection. Settings come from the environment:
//   PORT          port of the issuer http://127.0.0.1:PORT
//   MCP_RESOURCE  the MCP server's resource URI (the default audience)
//   OTHER_RESOURCE another server's resource URI (wrong-audience tests)
//   OPAQUE_RESOURCE a resource whose tokens are opaque
//   KID           key id of the signing key (a new key at every start)
import { generateKeyPairSync } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

const PORT = Number(process.env.PORT || 25100);
const ISSUER = `http://127.0.0.1:${PORT}`;
const MCP = process.env.MCP_RESOURCE;
const scope = 'tools:read tools:write admin';
const resources = { [MCP]: { scope, accessTokenFormat: 'jwt' } };
if (process.env.OTHER_RESOURCE) resources[process.env.OTHER_RESOURCE] = { scope, accessTokenFormat: 'jwt' };
if (process.env.OPAQUE_RESOURCE) resources[process.env.OPAQUE_RESOURCE] = { scope, accessTokenFormat: 'opaque' };

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: process.env.KID || 'k1', use: 'sig', alg: 'ES256' };
const cc = (id, secret, scopes) =>
  ({ client_id: id, client_secret: secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: scopes });

const provider = new Provider(ISSUER, {
  jwks: { keys: [jwk] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  scopes: ['openid', 'tools:read', 'tools:write', 'admin'],
  clients: [cc('mcp-reader', 'reader-secret', 'tools:read'),
            cc('mcp-admin', 'admin-secret', scope),
            cc('mcpgen-rs', 'rs-secret', 'tools:read')],
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
        return { ...rs, audience: ind, accessTokenTTL: 300, jwt: { sign: { alg: 'ES256' } } };
      },
    },
  },
});
provider.listen(PORT, '127.0.0.1', () => console.log(`listening ${ISSUER}`));
