import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../canonical/chat.ts';
import { asksForImages, chatToImageRequest, imageResponseToChat } from './image-chat.ts';
import { aspectRatioToSize, nearestAspectRatio, sizeToAspectRatio } from '../canonical/image-size.ts';

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-image-1',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'A fox' }] }],
  stream: false,
  modalities: ['text', 'image'],
  ...extra,
});

describe('chat ⇄ image', () => {
  it('asksForImages follows the output modalities', () => {
    expect(asksForImages(chat())).toBe(true);
    expect(asksForImages(chat({ modalities: ['text'] }))).toBe(false);
    expect(asksForImages(chat({ modalities: undefined }))).toBe(false);
  });

  it('text only → a generation; candidateCount → n; Gemini aspect ratio → a size', () => {
    const { value, warnings } = chatToImageRequest(
      chat({ candidateCount: 2, extras: { dialect: 'gemini', fields: { 'generationConfig.imageConfig': { aspectRatio: '3:2' } } } }),
      'gpt-image-1',
    );
    expect(value).toEqual({ op: 'generate', model: 'gpt-image-1', prompt: 'A fox', images: [], n: 2, size: '1536x1024', responseFormat: 'b64_json' });
    expect(warnings).toEqual([]);
  });

  it('images in the last user turn → an edit; earlier turns dropped with a warning', () => {
    const { value, warnings } = chatToImageRequest(
      chat({
        system: [{ type: 'text', text: 'Be bold.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'old' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          { role: 'user', content: [{ type: 'text', text: 'Make it blue' }, { type: 'image', source: { type: 'base64', mediaType: 'image/webp', data: 'AQID' } }] },
        ],
      }),
      'm',
    );
    expect(value.op).toBe('edit');
    expect(value.prompt).toBe('Be bold.\n\nMake it blue');
    expect(value.images).toEqual([{ data: new Uint8Array([1, 2, 3]), mediaType: 'image/webp', filename: 'image.webp' }]);
    expect(warnings).toContainEqual({ code: 'dropped', path: 'contents', detail: 'earlier-turns', lossy: true });
  });

  it('an image response → image parts (revised prompt first); one choice per image with candidateCount', () => {
    const res = { created: 5, images: [{ b64: 'AA', mediaType: 'image/png', revisedPrompt: 'r' }, { b64: 'BB' }], usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } };
    const one = imageResponseToChat(res, chat(), 'id1');
    expect(one.choices).toHaveLength(1);
    expect(one.choices[0]!.content).toEqual([
      { type: 'text', text: 'r' },
      { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA' } },
      { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'BB' } },
    ]);
    expect(one.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    const two = imageResponseToChat(res, chat({ candidateCount: 2 }), 'id2');
    expect(two.choices.map((c) => c.content.length)).toEqual([2, 1]);
  });
});

describe('sizes and aspect ratios', () => {
  it('maps both ways', () => {
    expect(sizeToAspectRatio('1792x1024')).toBe('16:9');
    expect(sizeToAspectRatio('1000x100')).toBeUndefined();
    expect(nearestAspectRatio('1000x100')).toBe('21:9');
    expect(nearestAspectRatio('auto')).toBeUndefined();
    expect(aspectRatioToSize('16:9')).toBe('1792x1024');
    expect(aspectRatioToSize('2:1')).toBe('1448x724');
    expect(aspectRatioToSize('wide')).toBeUndefined();
  });
});
