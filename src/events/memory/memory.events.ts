import type { DomainEvent } from '../domain-event';

/** Who may see an item: customer-facing evidence, or internal tools only. */
export type Audience = 'customer_safe' | 'internal';
/** How much an item can be trusted as evidence. */
export type AuthorityLevel = 'approved_source' | 'reference' | 'unverified';
export type Visibility = 'organization_internal' | 'tool_private';
/** Where an item came from. */
export type SourceType = 'document' | 'tool_work_log' | 'memory_proposal';

export type MemoryChunk = {
  memory_chunk_id: number;
  ordinal: number;
  /** The heading path the chunk sits under ("Pricing > Cleanings"), or null. */
  heading: string | null;
  text: string;
};

/** Content fields shared by a creation and a revision (type aliases: event data must be plain records). */
export type MemoryContent = {
  title: string;
  summary: string;
  content: string;
  content_sha256: string;
  chunks: MemoryChunk[];
  source_date: string | null;
  effective_at: string | null;
  expires_at: string | null;
  /**
   * A revision too large for one append (src/commands/memory/content-parts.ts): `content` is '' and `chunks` []
   * here, and both were recorded in this many MemoryContentPartRecorded events just before, in the same stream.
   * Absent: `content` and `chunks` are inline.
   */
  parts?: number;
  /**
   * Unsafe-content flags an operator accepted for this revision (`memory:ingest --allow-flag`): which flags were
   * found and allowed, and by whom. Absent: the scanner found nothing.
   */
  unsafe_flags_allowed?: UnsafeFlagsAllowed;
};

/** An operator's override of the unsafe-content scanner on an ingested document (issue 29). */
export type UnsafeFlagsAllowed = {
  /** The actor who allowed them (`operator:<name>`). */
  allowed_by: string;
  /** The `--allow-flag` values given (kinds or rules). */
  allowed: string[];
  /** What the scanner found (never the value). */
  flags: Array<{ field: string; kind: string; rule: string; line: number; column: number }>;
};

/** One piece of a revision's content and chunks, recorded before the revision's Created/Revised event. */
export type MemoryContentPart = { content: string; chunks: MemoryChunk[] };

export type MemorySourceRegistered = DomainEvent<
  'MemorySourceRegistered',
  {
    memory_source_id: number;
    organization_id: number;
    source_type: SourceType;
    label: string;
    source_uri: string | null;
  }
>;

export type MemoryItemCreated = DomainEvent<
  'MemoryItemCreated',
  MemoryContent & {
    memory_item_id: number;
    memory_source_id: number;
    organization_id: number;
    revision: 1;
    /** e.g. `document`, `faq`, `policy`, `work_log`, `handoff`, `note`, `decision`, `fact`. */
    type: string;
    audience: Audience;
    authority_level: AuthorityLevel;
    visibility: Visibility;
    /** The connector client key that owns a tool_private item; null otherwise. */
    owner_client_key: string | null;
    source_uri: string | null;
    /** The approved proposal whose approval created the item (absent: not created from a proposal, or older). */
    proposal_id?: number;
  }
>;

export type MemoryItemRevised = DomainEvent<
  'MemoryItemRevised',
  MemoryContent & {
    memory_item_id: number;
    organization_id: number;
    revision: number;
    /** The approved correction proposal this revision applies (absent: an operator revision or re-ingestion). */
    proposal_id?: number;
  }
>;

/**
 * A part of the revision `revision` (content `content_sha256`), number `part` from 0. Until the revision's
 * Created/Revised event names its part count, parts change nothing anyone reads: projections stage them, and an
 * interrupted ingestion resumes after the last part recorded (the same content splits into the same parts).
 */
export type MemoryContentPartRecorded = DomainEvent<
  'MemoryContentPartRecorded',
  MemoryContentPart & {
    memory_item_id: number;
    organization_id: number;
    revision: number;
    content_sha256: string;
    part: number;
  }
>;

export type MemoryItemArchived = DomainEvent<
  'MemoryItemArchived',
  { memory_item_id: number; organization_id: number }
>;

/**
 * A document key names the item (and source) its ingestions write. The first claim wins; a later one is appended
 * only when the claimed item was erased (`replaces_memory_item_id`, absent in first claims): the document is then
 * ingested as a new item.
 */
export type MemoryDocumentClaimed = DomainEvent<
  'MemoryDocumentClaimed',
  {
    organization_id: number;
    document_key: string;
    memory_item_id: number;
    memory_source_id: number;
    replaces_memory_item_id?: number;
  }
>;

export type MemorySourceEvent = MemorySourceRegistered;
export type MemoryDocumentEvent = MemoryDocumentClaimed;
export type MemoryItemEvent =
  MemoryItemCreated | MemoryItemRevised | MemoryItemArchived | MemoryContentPartRecorded;
