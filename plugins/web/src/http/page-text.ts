import { bodyKind, type ContentType } from "./content-type";
import { decodeText, looksLikeHtml, looksLikeText, sniffHtmlCharset } from "./decode-text";
import { fetchFailures } from "./fetch-failures";
import { htmlToText } from "./html-text";

/**
 * The readable text of a fetched body: HTML converted to text (links resolved against
 * `finalUrl`), JSON and other text decoded unchanged, an unlabelled body sniffed (HTML, text, or
 * a failure when binary). Rejects with the model-safe failure for a body that is not text.
 */
export async function pageText(
  url: string,
  finalUrl: string,
  type: ContentType,
  bytes: Uint8Array,
): Promise<string> {
  switch (bodyKind(type.mediaType)) {
    case "html":
      return htmlToText(decodeText(bytes, type.charset ?? sniffHtmlCharset(bytes)), finalUrl);
    case "json":
    case "text":
      return decodeText(bytes, type.charset);
    case "unknown": {
      if (!looksLikeText(bytes)) throw fetchFailures.binaryWithoutType(url);
      const text = decodeText(bytes, undefined);
      return looksLikeHtml(text) ? htmlToText(text, finalUrl) : text;
    }
    case "binary":
      throw fetchFailures.notText(url, type.mediaType);
  }
}
