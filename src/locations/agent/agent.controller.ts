import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { NeverReplayed } from '../../common/http/idempotency';
import type { Response } from 'express';
import { Public } from '../../common/access/access';
import { AgentGuard, AgentRequest } from './agent-auth';
import { AgentConfig, AgentService, ResultsAnswer, versionOf } from './agent.service';

/**
 * The agents' routes (docs/agents.md): not for clients. @Public lets them past the owner's guard
 * (no session or API key counts here); AgentGuard admits an agent token and nothing else.
 */
@Controller('api/agent')
@Public()
@UseGuards(AgentGuard)
export class AgentController {
  constructor(private readonly agents: AgentService) {}

  @Get('config')
  async config(
    @Req() req: AgentRequest,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AgentConfig | undefined> {
    const token = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const contact = { version: versionOf(req.headers['user-agent']), address: req.clientIp ?? null };
    const answer = await this.agents.config(req.agentLocation!, query, contact, token);
    if (answer === null) res.status(204);
    return answer ?? undefined;
  }

  @Post('results')
  // Idempotent by the results' own seq (a retried batch is taken once); an agent is no API caller.
  @NeverReplayed()
  @HttpCode(200)
  results(@Req() req: AgentRequest, @Body() body: unknown): Promise<ResultsAnswer> {
    return this.agents.results(req.agentLocation!, body, req.clientIp ?? null);
  }
}
