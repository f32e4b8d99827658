import { expect, test } from 'vitest';
import { parseDataUrl } from '../../src/kit/index.ts';
import { audioFormatOf, mediaTypeOfFilename, splitContent, toDataUrl } from './media.ts';

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

test('audio format: a named wav or mp3 wins, else every media type spelling of each', () => {
  expect(audioFormatOf('mp3', 'audio/wav')).toBe('mp3');
  expect(audioFormatOf('wav', 'audio/mpeg')).toBe('wav');
  for (const t of ['audio/wav', 'audio/x-wav', 'audio/wave', 'AUDIO/WAV']) expect(audioFormatOf(undefined, t)).toBe('wav');
  for (const t of ['audio/mpeg', 'audio/mp3']) expect(audioFormatOf('', t)).toBe('mp3');
  expect(audioFormatOf(undefined, undefined)).toBeUndefined();
  expect(audioFormatOf(undefined, 'audio/ogg')).toBeUndefined();
});

test('file names: the last extension, any case; none → octet-stream', () => {
  expect(mediaTypeOfFilename('a.tar.json')).toBe('application/json');
  expect(mediaTypeOfFilename('notes.Md')).toBe('text/markdown');
  expect(mediaTypeOfFilename('README')).toBe('application/octet-stream');
  expect(mediaTypeOfFilename('')).toBe('application/octet-stream');
});

test('content arrays: text and thinking (a string or its own parts) apart; anything else skipped', () => {
  expect(
    splitContent([
      { type: 'thinking', thinking: 'one ' },
      { type: 'thinking', thinking: [{ type: 'text', text: 'two' }, { type: 'image_url', text: 'no' }] },
      { type: 'thinking', thinking: 5 },
      { type: 'text', text: 'Yes' },
      { type: 'text', text: 7 },
      { type: 'reference', text: 'no' },
      null,
      'bare',
      { type: 'text', text: '.' },
    ]),
  ).toEqual({ text: 'Yes.', reasoning: 'one two' });
  expect(splitContent('plain')).toEqual({ text: 'plain', reasoning: '' });
  expect(splitContent(null)).toEqual({ text: '', reasoning: '' });
  // Only a thinking part's `thinking` is thought, not a text part's member of that name.
  expect(splitContent([{ type: 'text', text: 'a', thinking: 'b' }])).toEqual({ text: 'a', reasoning: '' });
});
