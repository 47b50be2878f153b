import type { EdgeRequest } from '../edge-request.js';
import { CrawlerVerifier, type CrawlerVerdict } from './bot/crawler-verifier.js';
import { CHALLENGE_PATH, JsChallenge } from './bot/js-challenge.js';
import { UserAgentClassifier, type UaClass } from './bot/user-agent-class.js';
import type { Block, CheckOutcome } from './outcome.js';

// Step 7, when the site turns bot protection on:
//   1. scanners and attack tools (CRS's list) are blocked;
//   2. a User-Agent claiming a search engine must pass the reverse-then-forward DNS check,
//      else it is blocked as a fake crawler; a verified crawler skips the JS challenge;
//   3. with blockAutomated, other clients isbot recognises (curl, scripts, bots) are blocked;
//   4. with challenge 'js', everyone else needs the pass cookie (else the challenge page), except on
//      the paths the challenge leaves alone (bot/challenge-exemptions.ts: feeds, REST API, cron...).

export class BotGuard {
  constructor(
    private readonly classifier: UserAgentClassifier,
    private readonly verifier: CrawlerVerifier,
    private readonly challenge: JsChallenge,
  ) {}

  check(req: EdgeRequest): CheckOutcome | Promise<CheckOutcome> {
    const bot = req.site.bot;
    if (!bot.enabled) return null;
    const ua = this.classifier.classify(req.userAgent, bot.blockAutomated);
    if (ua.kind === 'scanner') {
      return block(req, 'bot-scanner', `Security scanner or attack tool: ${ua.match}`, ua.match);
    }
    if (ua.kind === 'crawler') {
      const verdict = this.verifier.verify(req.client.text, ua.engine);
      return typeof verdict === 'string' ? this.afterCrawler(req, ua, verdict) : verdict.then((v) => this.afterCrawler(req, ua, v));
    }
    if (ua.kind === 'automated' && bot.blockAutomated) {
      return block(req, 'bot-automated', 'Automated client', req.userAgent.slice(0, 200));
    }
    return this.challengeIfNeeded(req);
  }

  private afterCrawler(req: EdgeRequest, ua: Extract<UaClass, { kind: 'crawler' }>, verdict: CrawlerVerdict): CheckOutcome {
    if (verdict === 'fake') {
      return block(req, 'bot-fake-crawler', `Claims to be ${ua.engine.name}'s crawler but DNS does not confirm it`, req.client.text);
    }
    // verified, or DNS could not tell in time (let it through: see crawler-verifier.ts).
    return verdict === 'verified' ? null : this.challengeIfNeeded(req);
  }

  private challengeIfNeeded(req: EdgeRequest): CheckOutcome {
    if (req.site.bot.challenge !== 'js') return null;
    const { site, client } = req;
    if (req.path !== CHALLENGE_PATH && site.bot.challengeExempt.exempts(req.path, req.pathUnresolved)) return null;
    if (req.path === CHALLENGE_PATH) {
      const q = req.uri.indexOf('?');
      return this.challenge.answer(new URLSearchParams(q === -1 ? '' : req.uri.slice(q + 1)), site.id, client.text, req.secure);
    }
    if (this.challenge.hasPass(req.cookie, site.id, client.text)) return null;
    return this.challenge.page(site.id, client.text, req.uri);
  }
}

function block(req: EdgeRequest, ruleId: string, msg: string, data: string): Block {
  return {
    kind: 'block', group: 'bot', ruleId, severity: 'CRITICAL', msg,
    matchedVar: ruleId === 'bot-fake-crawler' ? 'REMOTE_ADDR' : 'REQUEST_HEADERS:User-Agent', matchedData: data,
  };
}
