/**
 * What the log says of a request: Fastify's usual fields, with the values of query parameters that carry a
 * secret replaced by `[redacted]` (a gift card code looked up with GET /giftcards/balance?code=, a newsletter
 * confirmation code, a token or key sent in the query): a log is read by more people than the shop's customers
 * trust with their codes.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** query parameters whose value is a secret, by name (any case) */
const SECRET_PARAMS = /^(code|token|key|secret|password|api_?key|access_?token|refresh_?token|client_secret|signature)$/i;

/** The URL with the value of every secret query parameter replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const redacted = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape in the name: judge it as written
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

function requestEntry(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The logger options with the request serializer that redacts; `false` (no log) and a logger instance pass as they are. */
export function withRequestRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || logger === true) return logger === true ? { serializers: { req: requestEntry } } : logger;
  return { ...logger, serializers: { req: requestEntry, ...(logger.serializers ?? {}) } };
}
