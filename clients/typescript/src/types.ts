import type { components, paths } from './schema.js';

/** Named shapes of the API (generated from the OpenAPI document). */
type Schemas = components['schemas'];
export type ReplyRequest = Schemas['ReplyRequestBody'];
export type ReplySuccess = Schemas['ReplySuccess'];
export type ReplySystemStatus = Schemas['ReplySystemStatus'];
export type SystemStatus = ReplySystemStatus['system_status'];
export type FeedbackRequest = Schemas['SubmitFeedbackBody'];
export type FeedbackResponse = Schemas['FeedbackResponse'];
export type ApiErrorBody = Schemas['Error'];
export type SaveMemoryRequest = Schemas['SaveMemoryBody'];
export type SaveMemoryResponse = Schemas['SaveMemoryResponse'];
export type { components, paths };
