import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/executor/build-request.js';
import { decodeBase64, decodeFileArgument } from '../../src/executor/file-argument.js';
import { refusalCode as codeOf, uploadFile } from './operation-fixtures.js';

const API = 'https://api.example';
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

/** Parses the built body with the platform's own multipart parser. */
async function parseMultipart(built: ReturnType<typeof buildRequest>): Promise<FormData> {
  const body = new Uint8Array(built.body instanceof Uint8Array ? built.body : Buffer.from(built.body ?? ''));
  return new Response(body, { headers: { 'content-type': built.headers['content-type'] ?? '' } }).formData();
}

describe('multipart/form-data uploads', () => {
  it('decodes the base64 file and sends it with its name and type beside the other fields', async () => {
    const built = buildRequest(
      uploadFile,
      {
        file: { filename: 'cover "final".png', content_base64: png.toString('base64'), content_type: 'image/png' },
        folder: 'covers',
        tags: ['a', 'b'],
      },
      API,
      { multipartBoundary: 'test-boundary' },
    );

    expect(built.headers['content-type']).toBe('multipart/form-data; boundary=test-boundary');
    const form = await parseMultipart(built);
    const file = form.get('file') as File;
    expect(Buffer.from(built.body as Uint8Array).toString('latin1')).toContain('filename="cover %22final%22.png"');
    expect(file.name).toBe('cover "final".png');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    expect(form.get('folder')).toBe('covers');
    expect(form.get('tags')).toBe('["a","b"]');
  });

  it('sends several files under one property', async () => {
    const files = operationWithFiles();
    const built = buildRequest(
      files,
      {
        files: [
          { filename: 'a.txt', content_base64: Buffer.from('A').toString('base64') },
          { filename: 'b.txt', content_base64: Buffer.from('B').toString('base64') },
        ],
      },
      API,
    );
    const form = await parseMultipart(built);
    const sent = form.getAll('files') as File[];
    expect(await Promise.all(sent.map((file) => file.text()))).toEqual(['A', 'B']);
    expect(sent.map((file) => file.type)).toEqual(['text/plain', 'text/plain']);
  });

  it('refuses files over the upload cap, counting all files of the call', () => {
    const content_base64 = Buffer.alloc(600).toString('base64');
    const args = {
      files: [
        { filename: 'a', content_base64 },
        { filename: 'b', content_base64 },
      ],
    };
    expect(codeOf(() => buildRequest(operationWithFiles(), args, API, { maxUploadBytes: 1000 }))).toBe(
      'API_INPUT_INVALID',
    );
    expect(codeOf(() => buildRequest(operationWithFiles(), args, API, { maxUploadBytes: 1200 }))).toBeUndefined();
  });

  it.each([
    [{ filename: 'a.png', content_base64: 'not base64!' }, 'invalid base64'],
    [{ filename: 'a.png', content_base64: 'abcde' }, 'impossible base64 length'],
    [{ filename: '', content_base64: '' }, 'empty file name'],
    [{ filename: '../etc/passwd', content_base64: '' }, 'a path, not a name'],
    [{ filename: 'a\r\nb.png', content_base64: '' }, 'control characters in the name'],
    [{ filename: 'a.png', content_base64: '', content_type: 'image/png\r\nX: y' }, 'a header injection in the type'],
    [{ filename: 'a.png' }, 'no content'],
    ['a string', 'not a file object'],
  ])('refuses %j (%s) as an input error', (file, _reason) => {
    expect(codeOf(() => buildRequest(uploadFile, { file }, API))).toBe('API_INPUT_INVALID');
  });
});

describe('base64 content', () => {
  it('accepts padding-free, URL-safe, wrapped and data-URL forms', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    const forms = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      `${bytes.toString('base64').slice(0, 4)}\n${bytes.toString('base64').slice(4)}`,
      `data:image/png;base64,${bytes.toString('base64')}`,
    ];
    for (const form of forms) expect(Buffer.from(decodeBase64(form, 'file', 100))).toEqual(bytes);
  });

  it('checks the size before decoding', () => {
    expect(codeOf(() => decodeBase64('A'.repeat(4_000), 'file', 2_999))).toBe('API_INPUT_INVALID');
    expect(decodeBase64('A'.repeat(4_000), 'file', 3_000).byteLength).toBe(3_000);
  });

  it('defaults the content type of a file of unknown kind to application/octet-stream', () => {
    expect(decodeFileArgument({ filename: 'x', content_base64: '' }, 'file', 10).contentType).toBe(
      'application/octet-stream',
    );
    expect(decodeFileArgument({ filename: 'notes.unknownext', content_base64: '' }, 'file', 10).contentType).toBe(
      'application/octet-stream',
    );
  });

  it('guesses the content type from the file name, then from a data: URL, and keeps one given', () => {
    const typeOf = (file: Record<string, unknown>) =>
      decodeFileArgument({ content_base64: '', ...file }, 'file', 10).contentType;
    expect(typeOf({ filename: 'Cover.PNG' })).toBe('image/png');
    expect(typeOf({ filename: 'syllabus.pdf' })).toBe('application/pdf');
    expect(typeOf({ filename: 'photo.jpeg' })).toBe('image/jpeg');
    expect(typeOf({ filename: 'upload', content_base64: 'data:image/webp;base64,AAAA' })).toBe('image/webp');
    expect(typeOf({ filename: 'cover.png', content_type: 'image/x-custom' })).toBe('image/x-custom');
  });
});

function operationWithFiles() {
  return {
    ...uploadFile,
    body: { ...uploadFile.body!, propertyArguments: { files: 'files' }, fileProperties: ['files'] },
  };
}
