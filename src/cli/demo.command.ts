import { ModuleRef } from '@nestjs/core';
import { Command } from 'nest-commander';
import { seedDemo } from '../demo/seed-demo';
import { JsonCommand } from './json-command';

@Command({
  name: 'demo',
  description: 'Create the demo organization, chatbot and connectors (once) → their ids and token',
})
export class DemoCommand extends JsonCommand {
  constructor(private readonly moduleRef: ModuleRef) {
    super();
  }

  protected async execute(): Promise<object> {
    return seedDemo(this.moduleRef);
  }
}
