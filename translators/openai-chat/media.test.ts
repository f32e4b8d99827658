import { expect, test } from 'vitest';
import { parseDataUrl } from '../../src/canonical/index.ts';
import { audioFormatOf, mediaTypeOfFilename, toDataUrl } from './media.ts';

test('data URLs', () => {
  expect(parseDataUrl('data:image/png;base64,iVBOR')).toEqual({ mediaType: 'image/png', data: 'iVBOR' });
  expect(parseDataUrl('data:;base64,AAAA')).toEqual({ mediaType: 'application/octet-stream', data: 'AAAA' });
  expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
  expect(parseDataUrl('https://x/y.png')).toBeUndefined();
  expect(toDataUrl('application/pdf', 'JVBER')).toBe('data:application/pdf;base64,JVBER');
});

test('audio formats and file media types', () => {
  expect(audioFormatOf('WAV', undefined)).toBe('wav');
  expect(audioFormatOf(undefined, 'audio/mpeg')).toBe('mp3');
  expect(audioFormatOf('flac', 'audio/flac')).toBeUndefined();
  expect(mediaTypeOfFilename('Report.PDF')).toBe('application/pdf');
  expect(mediaTypeOfFilename(undefined)).toBe('application/octet-stream');
});
