import type { FastifyInstance } from 'fastify';
import { accountView, tokenView } from '../../../shared/schemas/account.js';
import { CreateTokenBodySchema, SetAccountBodySchema, TokenIdParamSchema } from '../../../shared/schemas/admin.js';
import { parseWith } from '../../api/envelope.js';
import { createToken, defaultAccount, revokeToken, setApiAccess } from '../../store/config/tokens.js';
import type { AdminDependencies } from '../dependencies.js';

// The default account's API access switch and its ingestion tokens (ROUTES.md).

export function accountRoutes(app: FastifyInstance, deps: AdminDependencies): void {
  const { store } = deps;

  app.get('/admin/account', async () => ({ success: true, data: accountView(defaultAccount(store.snapshot())) }));

  app.put('/admin/account', async (request) => {
    const { api_access } = parseWith(SetAccountBodySchema, request.body);
    const account = await store.update((draft) => setApiAccess(draft, api_access));
    request.log.info({ api_access }, 'account api_access changed');
    return { success: true, data: accountView(account) };
  });

  app.get('/admin/tokens', async () => ({ success: true, data: store.snapshot().tokens.map(tokenView) }));

  app.post('/admin/tokens', async (request, reply) => {
    const { name } = parseWith(CreateTokenBodySchema, request.body);
    const { token, clear } = await store.update((draft) => createToken(draft, name, deps.now().toISOString()));
    request.log.info({ token_id: token.id }, 'ingestion token created');
    return reply.code(201).send({ success: true, data: { id: token.id, name: token.name, token: clear, created_at: token.created_at } });
  });

  app.delete<{ Params: { id: string } }>('/admin/tokens/:id', async (request) => {
    const id = parseWith(TokenIdParamSchema, request.params.id, 'id');
    await store.update((draft) => revokeToken(draft, id));
    request.log.info({ token_id: id }, 'ingestion token revoked');
    return { success: true, data: { id, revoked: true } };
  });
}
