/** One part of a multipart/form-data body. */
export interface Part {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary from a `multipart/form-data; boundary=…` content type, or undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2])?.trim() : undefined;
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`${name}="([^"]*)"`, "i").exec(header);
  return m ? m[1] : undefined;
}

/**
 * Splits a multipart body into parts. Binary-safe (works on Buffers), because the WebClient sends
 * file bytes as a part; small enough that a library is not worth a dependency.
 */
export function parseMultipart(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    const start = pos + delimiter.length;
    // "--" right after a delimiter closes the body.
    if (body.subarray(start, start + 2).toString() === "--") break;
    const headerStart = start + CRLF.length;
    const headerEnd = body.indexOf(HEADER_END, headerStart);
    if (headerEnd === -1) break;
    const next = body.indexOf(delimiter, headerEnd);
    if (next === -1) break;
    const headers = body.subarray(headerStart, headerEnd).toString("utf8");
    // The CRLF before the next delimiter belongs to the framing, not the data.
    const data = body.subarray(headerEnd + HEADER_END.length, next - CRLF.length);
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    parts.push({
      name: headerParam(disposition, "name") ?? "",
      filename: headerParam(disposition, "filename"),
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim(),
      data: Buffer.from(data),
    });
    pos = next;
  }
  return parts;
}
