/**
 * The media type of a file sent without one, as `upload_file` promises: from a `data:` URL prefix
 * when the agent used one, else from the file name's extension. Pure. The table holds what schools
 * take as covers, attachments and downloads; anything else stays `application/octet-stream`.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  epub: 'application/epub+zip',
  json: 'application/json',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  css: 'text/css',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const UNKNOWN = 'application/octet-stream';
const DATA_URL_TYPE = /^data:([A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+)[^,]*;base64,/i;

export function guessMediaType(filename: string, contentBase64: string): string {
  const fromDataUrl = DATA_URL_TYPE.exec(contentBase64.trimStart())?.[1];
  if (fromDataUrl) return fromDataUrl.toLowerCase();
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || UNKNOWN;
}
