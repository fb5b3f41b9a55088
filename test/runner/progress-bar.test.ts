import { ProgressBar } from '../../src/runner/progress-bar';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { out, stream: { isTTY, columns: 80, write: (t: string) => out.push(t) } };
}

describe('a progress bar', () => {
  it('given a pipe, prints a line at each tenth it reaches and one when done', () => {
    const { out, stream: s } = stream(false);
    const bar = new ProgressBar('northgate seed 0', s);
    for (let day = 0; day <= 366; day++) bar.update(day, 366, `day ${day}`);
    bar.done('7,512 events');
    expect(out).toHaveLength(12);
    expect(out[0]).toBe('northgate seed 0: 0% (day 0)\n');
    expect(out[5]).toMatch(/^northgate seed 0: 50% \(day 18\d\)\n$/);
    expect(out[10]).toBe('northgate seed 0: 100% (day 366)\n');
    expect(out[11]).toBe('northgate seed 0: 7,512 events\n');
  });

  it('given a terminal, redraws one line in place and ends it with a newline', () => {
    const { out, stream: s } = stream(true);
    const bar = new ProgressBar('gen', s);
    bar.update(1, 4, 'a');
    bar.update(1, 4, 'a');
    bar.update(4, 4, 'b');
    bar.done();
    expect(out).toHaveLength(3);
    expect(out[0]).toBe(`\rgen [${'#'.repeat(8)}${'-'.repeat(22)}]  25% a\u001b[K`);
    expect(out[1]).toBe(`\rgen [${'#'.repeat(30)}] 100% b\u001b[K`);
    expect(out[2]).toBe('\rgen: done\u001b[K\n');
  });

  it('prints nothing when it never moved, as when the company came from the cache', () => {
    const { out, stream: s } = stream(false);
    new ProgressBar('gen', s).done();
    expect(out).toEqual([]);
  });
});
