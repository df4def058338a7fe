/**
 * Topical synthetic text for the scale bench: SyntheticText's Zipf vocabulary, plus TOPICS topics of
 * TOPIC_WORDS words each; a paragraph belongs to one topic and draws TOPIC_SHARE of its words from it, so the
 * chunks of a topic share words (and their embeddings are near), as real documents on one subject do.
 */
import { seededRandom, SyntheticText } from '../synthetic-text';
import type { WordMeaning } from './text-embedding';

const TOPICS = 2000;
const TOPIC_WORDS = 40;
const TOPIC_SHARE = 0.35;
/** Topics are grouped in domains (a subject's neighbours share a broader field). */
const DOMAINS = 100;
/** How much of a topic word's column is its topic's and its domain's direction (the rest is its own). */
const TOPIC_MEANING = Number(process.env.CAIRN_BENCH_TOPIC_MEANING ?? 1);
const DOMAIN_MEANING = Number(process.env.CAIRN_BENCH_DOMAIN_MEANING ?? 0.5);
/** A general (topic-less) word's weight against a topic word's 1: frequent across every topic, as a low idf. */
const GENERAL_WEIGHT = Number(process.env.CAIRN_BENCH_GENERAL_WEIGHT ?? 0.3);

export class TopicalText {
  private readonly text = new SyntheticText();
  private readonly next = seededRandom(4_242);
  private readonly topics: string[][];
  private readonly topicsOf = new Map<string, number[]>();

  /** `topics`: fewer topics put more chunks on each (the graph-only run keeps a million chunks' density). */
  constructor(private readonly topicCount = TOPICS) {
    this.topics = Array.from({ length: topicCount }, () =>
      Array.from({ length: TOPIC_WORDS }, () => this.text.word(300)),
    );
    this.topics.forEach((words, topic) => {
      for (const word of words) this.topicsOf.set(word, [...(this.topicsOf.get(word) ?? []), topic]);
    });
  }

  /** What a word means to the bench's embedding model (TextEmbedding): its topics and their domains. */
  readonly meaning = (word: string): WordMeaning => {
    const topics = this.topicsOf.get(word);
    if (!topics) return { weight: GENERAL_WEIGHT, meanings: [] };
    return {
      weight: 1,
      meanings: topics.flatMap((topic) => [
        [`topic:${topic}`, TOPIC_MEANING / topics.length] as const,
        [`domain:${topic % DOMAINS}`, DOMAIN_MEANING / topics.length] as const,
      ]),
    };
  };

  private topic(): string[] {
    return this.topics[Math.floor(this.next() * this.topicCount)];
  }

  private pick(words: string[]): string {
    return words[Math.floor(this.next() * words.length)];
  }

  /** ~150 words on one topic: one chunk. */
  paragraph(): string {
    const topic = this.topic();
    const words = Array.from({ length: 150 }, () =>
      this.next() < TOPIC_SHARE ? this.pick(topic) : this.text.word(),
    );
    const sentences: string[] = [];
    for (let start = 0; start < words.length; start += 15) {
      const sentence = words.slice(start, start + 15).join(' ');
      sentences.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`);
    }
    return sentences.join(' ');
  }

  title(): string {
    const topic = this.topic();
    return [this.pick(topic), this.text.word(), this.pick(topic)].join(' ');
  }

  /** 3–5 words: mostly one topic's words, one general word. */
  query(): string {
    const topic = this.topic();
    const length = 3 + Math.floor(this.next() * 3);
    return Array.from({ length }, (_, n) => (n === length - 1 ? this.text.word(50) : this.pick(topic))).join(
      ' ',
    );
  }
}
