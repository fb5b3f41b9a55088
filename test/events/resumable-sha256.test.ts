import { createHash, randomBytes } from 'node:crypto';
import { ResumableSha256 } from '../../src/events/resumable-sha256';

const nodeSha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a SHA-256 whose state can be written down', () => {
  it('given inputs of every length around the block and padding edges, then its digest is node:crypto\'s', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = randomBytes(n);
      expect(new ResumableSha256().update(bytes).digest()).toBe(nodeSha(bytes));
    }
  });

  it('given the known vector "abc" and text with multi-byte characters, then the digests are the standard ones', () => {
    expect(new ResumableSha256().update('abc').digest()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(new ResumableSha256().update('Zoë – café\n').digest()).toBe(createHash('sha256').update('Zoë – café\n').digest('hex'));
  });

  it('given a stream cut anywhere, when its state goes through JSON and is taken up again, then the digest is that of the whole', () => {
    const whole = randomBytes(5000);
    for (const cut of [0, 1, 63, 64, 65, 127, 1000, 4999, 5000]) {
      const first = new ResumableSha256().update(whole.subarray(0, cut));
      const resumed = new ResumableSha256(JSON.parse(JSON.stringify(first.state())));
      let at = cut;
      for (const size of [1, 7, 64, 300]) {
        resumed.update(whole.subarray(at, Math.min(whole.length, at + size)));
        at = Math.min(whole.length, at + size);
      }
      resumed.update(whole.subarray(at));
      expect(resumed.digest()).toBe(nodeSha(whole));
    }
  });

  it('given a digest taken midway, then the hash goes on as if it had not been', () => {
    const h = new ResumableSha256().update('first part ');
    h.digest();
    expect(h.update('second part').digest()).toBe(nodeSha(Buffer.from('first part second part')));
  });

  it.each([
    ['short words', { h: 'ab', length: 0, pending: '' }],
    ['a full pending block', { h: '00'.repeat(32), length: 64, pending: '00'.repeat(64) }],
    ['a length that disagrees with the pending bytes', { h: '00'.repeat(32), length: 70, pending: '00' }],
  ])('given a state with %s, then it is refused', (_what, state) => {
    expect(() => new ResumableSha256(state)).toThrow(/not a SHA-256 state/);
  });
});
