import { describe, expect, it } from 'vitest';
import { decodeEmbeddingRequest, MAX_INPUTS } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const decode = (body: unknown) => decodeEmbeddingRequest({ body, headers: {}, params: {}, query: {} });
const refusal = (body: unknown) => proxyErrorOf(() => decode(body));

describe('OpenAI embeddings request decoding', () => {
  it('a string, strings, a token array, token arrays', () => {
    expect(decode({ model: 'm', input: 'hi' }).value).toEqual({ model: 'm', inputs: [{ type: 'text', text: 'hi' }], encoding: 'float' });
    expect(decode({ model: 'm', input: ['a', 'b'] }).value.inputs).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]);
    expect(decode({ model: 'm', input: [1, 2, 3] }).value.inputs).toEqual([{ type: 'tokens', tokens: [1, 2, 3] }]);
    expect(decode({ model: 'm', input: [[1], [2, 3]] }).value.inputs).toEqual([{ type: 'tokens', tokens: [1] }, { type: 'tokens', tokens: [2, 3] }]);
  });

  it('dimensions, encoding_format, user; unknown fields dropped and reported', () => {
    const d = decode({ model: 'm', input: 'x', dimensions: 256, encoding_format: 'base64', user: 'u', extra: 1 });
    expect(d.value).toEqual({ model: 'm', inputs: [{ type: 'text', text: 'x' }], dimensions: 256, encoding: 'base64', user: 'u' });
    expect(d.warnings).toEqual([{ code: 'dropped', path: 'extra' }]);
  });

  it.each([
    [{ input: 'x' }, 'model'],
    [{ model: 'm' }, 'input'],
    [{ model: 'm', input: '' }, 'input'],
    [{ model: 'm', input: [] }, 'input'],
    [{ model: 'm', input: ['a', ''] }, 'input[1]'],
    [{ model: 'm', input: ['a', 3] }, 'input[1]'],
    [{ model: 'm', input: ['a', [1]] }, 'input[1]'],
    [{ model: 'm', input: [[1], 'a'] }, 'input[1]'],
    [{ model: 'm', input: [null] }, 'input[0]'],
    [{ model: 'm', input: [1.5] }, 'input'],
    [{ model: 'm', input: [[-1]] }, 'input[0]'],
    [{ model: 'm', input: [[]] }, 'input[0]'],
    [{ model: 'm', input: 5 }, 'input'],
    [{ model: 'm', input: 'x', dimensions: 0 }, 'dimensions'],
    [{ model: 'm', input: 'x', dimensions: 1.5 }, 'dimensions'],
    [{ model: 'm', input: 'x', encoding_format: 'int8' }, 'encoding_format'],
    [{ model: 'm', input: 'x', user: 5 }, 'user'],
  ])('%j is a 400 on %s', (body, param) => {
    const e = refusal(body);
    expect(e.status).toBe(400);
    expect(e.param).toBe(param);
  });

  it(`at most ${MAX_INPUTS} inputs`, () => {
    expect(decode({ model: 'm', input: Array(MAX_INPUTS).fill('x') }).value.inputs).toHaveLength(MAX_INPUTS);
    expect(refusal({ model: 'm', input: Array(MAX_INPUTS + 1).fill('x') }).code).toBe('array_above_max_length');
  });

  it('a body that is not an object is a 400', () => {
    expect(refusal([1]).status).toBe(400);
    expect(refusal(null).status).toBe(400);
  });
});
