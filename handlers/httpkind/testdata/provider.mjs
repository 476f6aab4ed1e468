// A local OpenID provider for end-to-end tests (npm oidc-provider 9.13.3):
// client credentials issue JWT access tokens for the MCP server's resource,
// and a minimal RFC 8693 grant exchanges them for tokens for a backend,
// keeping the user as `sub` and naming mcpgen in `act`. Test-only policy.
// Env: PORT, MCP_RESOURCE, BACKEND_RESOURCE. Prints "ready" when it listens.
import { generateKeyPairSync } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { createLocalJWKSet, jwtVerify } from 'jose';

const PORT = Number(process.env.PORT);
const ISSUER = `http://127.0.0.1:${PORT}`;
const MCP = process.env.MCP_RESOURCE;
const BACKEND = process.env.BACKEND_RESOURCE;
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'ES256' };
const resources = {
  [MCP]: { scope: 'tools:read tools:write', accessTokenFormat: 'jwt' },
  [BACKEND]: { scope: 'orders:read orders:write', accessTokenFormat: 'jwt' },
};
const TE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT = 'urn:ietf:params:oauth:token-type:access_token';
const cc = (id, secret, scope, grants = ['client_credentials']) =>
  ({ client_id: id, client_secret: secret, grant_types: grants, redirect_uris: [], response_types: [], scope });
const serverInfo = (ind, rs) => ({ ...rs, audience: ind, accessTokenTTL: 300, jwt: { sign: { alg: 'ES256' } } });

const provider = new Provider(ISSUER, {
  jwks: { keys: [jwk] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  scopes: ['openid', 'tools:read', 'tools:write', 'orders:read', 'orders:write'],
  clients: [cc('mcp-user', 'user-secret', 'tools:read tools:write'),
            cc('mcpgen-rs', 'rs-secret', 'orders:read orders:write', [TE, 'client_credentials'])],
  formats: { customizers: { jwt: async (ctx, token, jwt) => {
    if (ctx?.state?.teSubject) { jwt.payload.sub = ctx.state.teSubject; jwt.payload.act = { sub: jwt.payload.client_id }; }
  } } },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => MCP,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, ind) => {
        const rs = resources[ind]; if (!rs) throw new errors.InvalidTarget();
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
  const rs = resources[p.resource]; if (!rs || p.resource === MCP) throw new errors.InvalidTarget();
  const ok = new Set(rs.scope.split(' '));
  const scope = (p.scope || rs.scope).split(' ').filter((s) => ok.has(s)).join(' ');
  const t = new provider.ClientCredentials({ client: ctx.oidc.client, scope });
  t.resourceServer = new provider.ResourceServer(p.resource, serverInfo(p.resource, rs));
  ctx.state.teSubject = c.sub;
  ctx.body = { access_token: await t.save(), issued_token_type: AT, token_type: 'Bearer', expires_in: t.expiration, scope };
}, ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'requested_token_type', 'audience', 'resource', 'scope']);

provider.listen(PORT, '127.0.0.1', () => console.log('ready'));
