// Placeholder v2 corpus (format: /work/corpus-grounding/FORMAT.md) until the red-team corpus is copied here.
export interface DocV2 {
  title: string;
  content: string;
  authority: 'approved_source' | 'reference' | 'unverified';
  audience: 'customer_safe' | 'internal';
  source_uri: string;
  source_date?: string;
  expires_at?: string;
}
export interface QuoteV2 {
  doc: string;
  text: string;
}
export interface ClaimV2 {
  text: string;
  cite: string[];
  quotes: QuoteV2[];
}
export interface CaseV2 {
  id: string;
  kind: string;
  question: string;
  history?: { role: string; text: string }[];
  claims: ClaimV2[];
  review?: 'rubber_stamp' | { subset: string[][] };
  expect: 'refused' | 'answered';
  why: string;
}

export const DOCS_V2: DocV2[] = [
  {
    title: 'Bike rental prices',
    content:
      'A city bike rents for 35 € per day. Electric bikes rent for 12 € per hour. Helmets are included for members only.',
    authority: 'approved_source',
    audience: 'customer_safe',
    source_uri: 'https://www.example-bikes.com/prices',
    source_date: '2026-02-01',
  },
  {
    title: 'Bike rental prices (2024)',
    content: 'A city bike rents for 29 € per day.',
    authority: 'approved_source',
    audience: 'customer_safe',
    source_uri: 'https://www.example-bikes.com/prices-2024',
    source_date: '2024-02-01',
  },
];

export const CASES_V2: CaseV2[] = [
  {
    id: 'ctl-001',
    kind: 'control:symbol-after',
    question: 'How much does a city bike rent for per day?',
    claims: [
      {
        text: 'A city bike costs €35 per day.',
        cite: ['Bike rental prices'],
        quotes: [{ doc: 'Bike rental prices', text: 'A city bike rents for 35 € per day.' }],
      },
    ],
    expect: 'answered',
    why: 'the price with the symbol before the amount',
  },
  {
    id: 'fig-001',
    kind: 'figure:rate',
    question: 'How much does a city bike rent for per day?',
    claims: [
      {
        text: 'A city bike rents for 35 € per hour.',
        cite: ['Bike rental prices'],
        quotes: [{ doc: 'Bike rental prices', text: 'A city bike rents for 35 € per day.' }],
      },
    ],
    expect: 'refused',
    why: 'per day stated as per hour',
  },
  {
    id: 'src-001',
    kind: 'source:stale',
    question: 'How much does a city bike rent for per day?',
    claims: [
      {
        text: 'A city bike rents for 29 € per day.',
        cite: ['Bike rental prices (2024)'],
        quotes: [{ doc: 'Bike rental prices (2024)', text: 'A city bike rents for 29 € per day.' }],
      },
    ],
    expect: 'refused',
    why: 'the superseded 2024 price',
  },
  {
    id: 'scope-001',
    kind: 'scope:condition',
    question: 'Are helmets included with a bike rental?',
    claims: [
      {
        text: 'Helmets are included.',
        cite: ['Bike rental prices'],
        quotes: [{ doc: 'Bike rental prices', text: 'Helmets are included for members only.' }],
      },
    ],
    expect: 'refused',
    why: 'the members-only condition dropped',
  },
];
