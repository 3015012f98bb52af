/**
 * Storage: file upload (write-only, as the scopes say). An upload answers with the URL where the
 * file is served; that URL is then used as a cover image, logo or lecture attachment.
 */
import type { RouteHandler } from '../../http/router.js';
import { invalidInput } from '../api-error.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { s } from '../schema.js';
import type { SchoolState, StoredFile } from '../store/index.js';

const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Where stored files are served: outside `/api/v1`, like a CDN, and without a token. */
export const FILES_PATH = '/files/:fileId/:fileName';

/** Images may be shown inline; anything else is a download, so no upload runs as a page on this origin. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

const StoredFile = s.object(
  {
    id: s.id('The file id.', 'fil_0001'),
    filename: s.string('Stored file name (unsafe characters replaced).', { example: 'cover.png' }),
    content_type: s.string('Media type as uploaded.', { example: 'image/png' }),
    size_bytes: s.integer('Size in bytes.', { minimum: 0, maximum: MAX_UPLOAD_BYTES }),
    url: s.uri(
      'Where the file is served; use it wherever a URL is asked for.',
      'http://127.0.0.1:8080/files/fil_0001/cover.png',
    ),
    created_at: s.dateTime('When it was uploaded.'),
  },
  ['id', 'filename', 'content_type', 'size_bytes', 'url', 'created_at'],
  'An uploaded file.',
);

const FileUpload = s.object(
  {
    file: {
      type: 'string',
      format: 'binary',
      description: `The file (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB).`,
    },
  },
  ['file'],
  'A multipart form with one `file` part.',
);

/** Pure: a file name that is safe in a URL path segment and a header. */
function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100);
  return cleaned.length > 0 ? cleaned : 'file';
}

function fileView(file: StoredFile, baseUrl: string) {
  const { data_base64: _bytes, ...rest } = file;
  return { ...rest, url: `${baseUrl}/files/${file.id}/${file.filename}` };
}

async function uploadFile({ store, body, baseUrl }: HandlerContext) {
  const part = (body as FormData).get('file');
  if (part === null || typeof part === 'string')
    throw invalidInput([{ field: 'file', message: 'is required and must be a file part' }]);
  if (part.size > MAX_UPLOAD_BYTES)
    throw invalidInput([{ field: 'file', message: `must be at most ${MAX_UPLOAD_BYTES} bytes` }]);
  const bytes = Buffer.from(await part.arrayBuffer());
  const file: StoredFile = {
    id: store.newId('fil'),
    filename: safeFileName(part.name),
    content_type: part.type || 'application/octet-stream',
    size_bytes: bytes.length,
    data_base64: bytes.toString('base64'),
    created_at: store.timestamp(),
  };
  store.state.files.push(file);
  return fileView(file, baseUrl);
}

/** Serves a stored file back at the URL the upload answered. */
export function serveStoredFile(state: () => SchoolState): RouteHandler {
  return (_request, { params }) => {
    const file = state().files.find(
      (candidate) => candidate.id === params['fileId'] && candidate.filename === params['fileName'],
    );
    if (!file) return Response.json({ error: 'not_found', error_description: 'no such file' }, { status: 404 });
    const inline = INLINE_TYPES.has(file.content_type);
    return new Response(Buffer.from(file.data_base64, 'base64'), {
      headers: {
        'content-type': inline ? file.content_type : 'application/octet-stream',
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${file.filename}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
      },
    });
  };
}

const routes: ApiRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/storage/files',
    operationId: 'upload_file',
    summary: 'Upload a file',
    description:
      'Stores a file (cover image, logo, lecture attachment, download) sent as multipart/form-data in a `file` part, and answers with the URL where it is served.',
    group: 'storage',
    scopes: ['storage:write'],
    anonymous: 'private',
    body: { schema: s.ref('FileUpload'), contentType: 'multipart/form-data' },
    response: { status: 201, schema: s.ref('StoredFile'), description: 'The stored file and its URL.' },
    handler: uploadFile,
  },
];

export const storageFamily: RouteFamily = {
  group: 'storage',
  description: 'File upload (write-only); files are then served at the URL the upload answers.',
  schemas: { StoredFile, FileUpload },
  routes,
};
