// The pages the edge itself answers with. Plain, self-contained HTML; they name the request
// id (for support) and never anything internal (origin address, rule, error text).

export interface Page {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const TITLES: Record<number, [string, string]> = {
  400: ['Bad request', 'The request could not be understood.'],
  403: ['Access denied', 'This request was blocked by the site\'s firewall.'],
  404: ['Not found', 'The requested page was not found.'],
  405: ['Method not allowed', 'This server does not accept this request method.'],
  408: ['Request timeout', 'The request was not received in time.'],
  413: ['Request too large', 'The request body is larger than this site accepts.'],
  414: ['URI too long', 'The requested address is longer than this server accepts.'],
  421: ['Unknown site', 'This server does not serve the requested host name.'],
  429: ['Too many requests', 'You have sent too many requests. Please wait before trying again.'],
  431: ['Request headers too large', 'The request headers are larger than this server accepts.'],
  500: ['Request not processed', 'The request could not be checked by the site\'s firewall and was refused.'],
  501: ['Not implemented', 'The request uses a feature this server does not support.'],
  502: ['Bad gateway', 'The site\'s server could not be reached or sent an invalid response.'],
  503: ['Site unavailable', 'This site is not available at the moment.'],
  504: ['Gateway timeout', 'The site\'s server did not answer in time.'],
  505: ['HTTP version not supported', 'This server speaks HTTP/1.0 and HTTP/1.1 on this port.'],
};

export function page(status: number, requestId: string, extraHeaders: Record<string, string> = {}): Page {
  const [title, text] = TITLES[status] ?? ['Error', 'The request could not be served.'];
  const body = `<!doctype html>
<html><head><meta charset="utf-8"><title>${status} ${title}</title></head>
<body style="font-family:sans-serif;max-width:36em;margin:4em auto">
<h1>${title}</h1>
<p>${text}</p>
<p><small>Request id: <code>${requestId}</code></small></p>
</body></html>
`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'x-request-id': requestId,
      ...extraHeaders,
    },
    body,
  };
}
