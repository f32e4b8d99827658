import { describe, expect, it } from 'vitest';
import { StepAnnotations } from './citations-stream.ts';

const bytes = (s: string) => new TextEncoder().encode(s).length;
const at = (url: string, start: number, end: number) => ({ type: 'url_citation', url, title: url, start_index: start, end_index: end });

describe('StepAnnotations: citations of the open output step\'s text blocks', () => {
  it('a span in the open block moves by where the block began in the step; one without a span waits for the block\'s end', () => {
    const a = new StepAnnotations();
    a.step();
    a.start();
    a.text('Hi. ');
    expect(a.end()).toEqual([]);
    a.start();
    a.text('Café ');
    a.text('won');
    expect(a.cite({ url: 'u', span: { start: 0, end: 4 } })).toEqual([at('u', bytes('Hi. '), bytes('Hi. Café'))]);
    expect(a.cite({ url: 'w' })).toEqual([]);
    expect(a.end()).toEqual([at('w', bytes('Hi. '), bytes('Hi. Café won'))]);
    expect(a.end()).toEqual([]);
  });

  it('a citation after its block ended: of that block, sent at once (a span moved into it)', () => {
    const a = new StepAnnotations();
    a.text('ab');
    a.end();
    a.start();
    a.text('cd');
    a.end();
    expect(a.cite({ url: 'x' })).toEqual([at('x', 2, 4)]);
    expect(a.cite({ url: 'y', span: { start: 1, end: 2 } })).toEqual([at('y', 3, 4)]);
  });

  it('a citation before the block said anything waits for it; a new block forgets what waited and what ended', () => {
    const a = new StepAnnotations();
    a.start();
    expect(a.cite({ url: 'early' })).toEqual([]);
    a.text('xyz');
    expect(a.end()).toEqual([at('early', 0, 3)]);
    a.start();
    expect(a.cite({ url: 'dropped' })).toEqual([]);
    a.start();
    a.text('!');
    expect(a.end()).toEqual([]);
    a.start();
    expect(a.cite({ url: 'waits', span: { start: 0, end: 1 } })).toEqual([]);
    expect(a.end()).toEqual([]);
  });

  it('a new step starts its text over and forgets its blocks', () => {
    const a = new StepAnnotations();
    a.text('first step');
    expect(a.end()).toEqual([]);
    a.step();
    expect(a.cite({ url: 'none yet' })).toEqual([]);
    a.text('é');
    expect(a.end()).toEqual([at('none yet', 0, 2)]);
    a.text('ab');
    a.step();
    a.text('c');
    expect(a.cite({ url: 'z', span: { start: 0, end: 1 } })).toEqual([at('z', 0, 1)]);
  });

  it('this API\'s own annotations are sent as they were', () => {
    const a = new StepAnnotations();
    a.text('t');
    const own = { type: 'url_citation', url: 'o', start_index: 0, end_index: 1 };
    expect(a.cite({ url: 'o', span: { start: 0, end: 1 }, raw: { dialect: 'gemini-interactions', value: own } })).toEqual([own]);
  });
});
