// The engine's view of an HTTP exchange. Every string is a byte string (see ../CONTRACT.md):
// one char per byte, made with buffer.toString('latin1'), so the engine matches bytes the way
// ModSecurity v2 does whatever the encoding of the request.

export interface EngineRequest {
  remoteAddr: string;
  remotePort: number;
  serverAddr?: string;
  serverPort?: number;
  /** The method exactly as on the request line. */
  method: string;
  /** The request target exactly as on the request line (origin-form, absolute-form, ...). */
  uri: string;
  /** `HTTP/1.1`, `HTTP/1.0`, ... as sent. */
  protocol: string;
  /** The request line as received; defaults to `method uri protocol`. */
  requestLine?: string;
  /** Header fields in arrival order, names as sent. */
  headers: Array<[string, string]>;
  body?: Buffer;
}

export interface EngineResponse {
  status: number;
  protocol?: string;
  headers: Array<[string, string]>;
  body?: Buffer;
}
