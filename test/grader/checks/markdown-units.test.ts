import { allUnits, markdownUnits, sentencesOf, type TextUnit } from '../../../src/grader/checks/markdown-units';

const shape = (u: TextUnit): unknown => (u.children.length ? { [`${u.kind}: ${u.head}`]: u.children.map(shape) } : `${u.kind}: ${u.head}`);

describe('the sentences of a paragraph', () => {
  it('end at a full stop, question or exclamation mark followed by a space', () => {
    expect(sentencesOf('Margin fell. Why? Prices rose!  The end')).toEqual(['Margin fell.', 'Why?', 'Prices rose!', 'The end']);
  });

  it('do not end at an abbreviation, an initial, a decimal point or before a lower-case word', () => {
    expect(sentencesOf('Held Inv. No. 7 from Acme Inc. for approx. 1,234.56, i.e. the price vs. the PO, e.g. tax. J. Smith of U.S. Steel Co. agreed. Cust. rebate down.'))
      .toEqual(['Held Inv. No. 7 from Acme Inc. for approx. 1,234.56, i.e. the price vs. the PO, e.g. tax.', 'J. Smith of U.S. Steel Co. agreed.', 'Cust. rebate down.']);
  });
});

describe('the units of a Markdown text', () => {
  it('gives a heading the text under it up to the next heading of its level or higher', () => {
    const root = markdownUnits('# Bridge\n\nIntro one. Intro two.\n\n## Price\n\nIt cost us 5.00.\n\n### Detail\n\nSee AP-1.\n\n## Rebate\n\nNone.\n\n# Next\n\nEnd.');
    expect(shape(root)).toEqual({
      'section: ': [
        { 'section: Bridge': ['sentence: Intro one.', 'sentence: Intro two.', { 'section: Price': ['sentence: It cost us 5.00.', { 'section: Detail': ['sentence: See AP-1.'] }] }, { 'section: Rebate': ['sentence: None.'] }] },
        { 'section: Next': ['sentence: End.'] },
      ],
    });
  });

  it('keeps a list item with the items nested under it, and a wrapped item line as one', () => {
    const root = markdownUnits('- Price increase\n  costing us\n  - Amount: (5.00)\n  - Source: AP-1\n- Rebate: 2.00\n\n1. First\n2. Second');
    expect(shape(root)).toEqual({
      'section: ': [
        { 'item: Price increase costing us': ['item: Amount: (5.00)', 'item: Source: AP-1'] },
        'item: Rebate: 2.00', 'item: First', 'item: Second',
      ],
    });
  });

  it('reads a table row with its header, emphasis and code marks dropped', () => {
    const root = markdownUnits('| Driver | **Effect** | Source |\n|---|---:|---|\n| Write-off | (5.00) | `ADJ-1` |\n| Mix | 1.00 | |');
    expect(allUnits(root).filter((u) => u.kind === 'row').map((u) => u.head)).toEqual(['Driver: Write-off; Effect: (5.00); Source: ADJ-1', 'Driver: Mix; Effect: 1.00']);
  });
});
