// @isomorphic-git/cors-proxy ships no types: its default export is a (req, res, next?) middleware.
declare module '@isomorphic-git/cors-proxy' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  const handleRequest: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
  export default handleRequest;
}
