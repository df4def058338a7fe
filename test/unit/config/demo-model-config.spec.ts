import { demoModelRequested, withDemoModel, DEMO_MODEL_NAME } from '../../../src/ai/demo-model';
import { loadConfig } from '../../../src/config/config';

describe('CAIRN_DEMO_MODEL / --demo-model', () => {
  it('is off by default and takes on or off', () => {
    expect(loadConfig({}).demoModel).toBe(false);
    expect(loadConfig({ CAIRN_DEMO_MODEL: 'on' }).demoModel).toBe(true);
    expect(loadConfig({ CAIRN_DEMO_MODEL: 'off' }).demoModel).toBe(false);
    expect(() => loadConfig({ CAIRN_DEMO_MODEL: 'yes' })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'CAIRN_DEMO_MODEL' })] }),
    );
  });

  it('is refused together with a configured model, naming each variable', () => {
    expect(() =>
      loadConfig({ CAIRN_DEMO_MODEL: 'on', OPENAI_BASE_URL: 'http://x', CAIRN_REVIEWER_MODEL: 'r' }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_configuration',
        details: [
          expect.objectContaining({
            field: 'CAIRN_DEMO_MODEL',
            message: expect.stringContaining('OPENAI_BASE_URL'),
          }),
          expect.objectContaining({ message: expect.stringContaining('CAIRN_REVIEWER_MODEL') }),
        ],
      }),
    );
  });

  it('the flag turns it on as the variable does, and points both roles at the demo model', async () => {
    expect(demoModelRequested(loadConfig({}), ['node', 'main.js', '--demo'])).toBe(false);
    expect(demoModelRequested(loadConfig({}), ['node', 'main.js', '--demo-model'])).toBe(true);
    expect(demoModelRequested(loadConfig({ CAIRN_DEMO_MODEL: 'on' }), ['node', 'main.js'])).toBe(true);
    const config = await withDemoModel(loadConfig({}));
    expect(config).toMatchObject({ composerModel: DEMO_MODEL_NAME, reviewerModel: DEMO_MODEL_NAME });
    expect(config.openaiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await expect(withDemoModel(loadConfig({ CAIRN_COMPOSER_MODEL: 'c' }))).rejects.toMatchObject({
      code: 'invalid_configuration',
    });
  });
});
