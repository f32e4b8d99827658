/**
 * The stream guarantees (stream-guarantees.test.ts) once more with the turn memo off: every
 * end-to-end suite runs with the memo on for every body (test/support/proxy.ts), and the
 * guarantees must hold either way (#38). The suite is imported with the switch set, which its
 * config reads when it loads; the switch is restored for the files after this one.
 */
export {};

const before = process.env.INTERLINGUA_TEST_TURN_MEMO;
process.env.INTERLINGUA_TEST_TURN_MEMO = 'off';
try {
  const { TURN_MEMO_LIMITS } = await import('../support/proxy.ts');
  if (TURN_MEMO_LIMITS.turnMemoBytes !== 0) throw new Error('the turn memo is not off for this suite');
  await import('./stream-guarantees.test.ts');
} finally {
  if (before === undefined) delete process.env.INTERLINGUA_TEST_TURN_MEMO;
  else process.env.INTERLINGUA_TEST_TURN_MEMO = before;
}
