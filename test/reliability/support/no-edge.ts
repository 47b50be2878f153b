import type { EdgeFactory } from '../../../daemon/edge-service.js';

// The fuzz runs aim at the API and the admin socket, not the data plane: a daemon without an edge
// binds no edge port and compiles no rule set, so every fuzz case costs only what it tests.
export const noEdge: EdgeFactory = () => ({
  listen: async () => ({ edge: 0, edgeTls: 0 }),
  close: async () => {},
  load: () => null,
});
