import { ModelCallError, OpenAiGateway } from '../../src/ai/openai-gateway';

/** A gateway to a test model server. */
export const gatewayFor = (baseUrl: string, timeoutMs = 5000): OpenAiGateway =>
  new OpenAiGateway({ baseUrl, apiKey: 'test', timeoutMs });

/** The ModelCallError a call fails with (any other outcome fails the test). */
export const failure = async (promise: Promise<unknown>): Promise<ModelCallError> => {
  const error: unknown = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  if (!(error instanceof ModelCallError)) throw error;
  return error;
};
