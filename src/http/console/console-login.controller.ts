import { Body, Controller, Get, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors';
import { OperatorTokens } from '../../commands/operator-tokens/operator-tokens';
import { ConsoleErrorFilter } from './console-error.filter';
import { CONSOLE_PATH, setSession } from './console-session';
import { CONSOLE_CSS } from './pages/console-css';
import { CONSOLE_HEADERS } from './pages/console-layout';
import { loginPage } from './pages/login-page';

/** Signing in and out of the console, and its stylesheet (no session needed for these). */
@ApiExcludeController()
@Controller('admin/console')
@UseFilters(ConsoleErrorFilter)
export class ConsoleLoginController {
  constructor(private readonly tokens: OperatorTokens) {}

  @Get('login')
  form(@Res() reply: FastifyReply): void {
    void reply.headers(CONSOLE_HEADERS).type('text/html; charset=utf-8').send(loginPage(null));
  }

  /** A valid operator token sets the session cookie and goes to the console; any other answers the form again. */
  @Post('login')
  @HttpCode(303)
  async login(
    @Body() body: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const token = typeof body?.token === 'string' ? body.token.trim() : undefined;
    try {
      await this.tokens.authenticate(token);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      void reply
        .status(401)
        .headers(CONSOLE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(loginPage(error.message));
      return;
    }
    setSession(reply, request, token as string);
    void reply.status(303).headers(CONSOLE_HEADERS).header('location', CONSOLE_PATH).send();
  }

  @Post('logout')
  @HttpCode(303)
  logout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    setSession(reply, request, null);
    void reply.status(303).headers(CONSOLE_HEADERS).header('location', `${CONSOLE_PATH}/login`).send();
  }

  @Get('assets/console.css')
  stylesheet(@Res() reply: FastifyReply): void {
    void reply
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(CONSOLE_CSS);
  }
}
