import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document this server serves, kept once built (the MCP tools take their schemas from it). */
@Injectable()
export class OpenApiDocumentHolder {
  private document: OpenAPIObject | null = null;

  set(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('the OpenAPI document is not built yet');
    return this.document;
  }
}
