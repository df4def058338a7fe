import { ApiProperty } from '@nestjs/swagger';

class ErrorDetailView {
  @ApiProperty({ required: false, description: 'dotted path of the field' }) field?: string;
  @ApiProperty() message!: string;
}

class ErrorView {
  @ApiProperty({ example: 'validation_failed' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ type: [ErrorDetailView] }) details!: ErrorDetailView[];
}

/** The error shape of every non-2xx response. */
export class ErrorResponse {
  @ApiProperty({ example: false }) ok!: false;
  @ApiProperty({ type: ErrorView }) error!: ErrorView;
}
