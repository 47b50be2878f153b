import { describe, it, expect } from 'vitest';
import { parseActionList } from '../../../../daemon/engine/rules/action-list.js';

describe('parseActionList (ModSecurity v2 msre_parse_generic)', () => {
  it('parses names, values, quoted values with commas and escapes', () => {
    expect(parseActionList(`id:1, phase:2,msg:'a, b \\'c\\'',t:none ,pass,setvar:'tx.x=%{tx.y}'`)).toEqual([
      { name: 'id', param: '1' },
      { name: 'phase', param: '2' },
      { name: 'msg', param: "a, b 'c'" },
      { name: 't', param: 'none' },
      { name: 'pass', param: undefined },
      { name: 'setvar', param: 'tx.x=%{tx.y}' },
    ]);
  });
  it('keeps colons in unquoted values', () => {
    expect(parseActionList('ctl:ruleRemoveTargetById=942100;ARGS:pwd')).toEqual([
      { name: 'ctl', param: 'ruleRemoveTargetById=942100;ARGS:pwd' },
    ]);
  });
  it('rejects an unterminated quote', () => {
    expect(() => parseActionList("msg:'abc")).toThrow(/closing quote/);
  });
});

import { splitTargetList } from '../../../../daemon/engine/variables/targets.js';

describe('splitTargetList', () => {
  it('keeps | inside regex selectors and treats XML:/ as an XPath', () => {
    expect(splitTargetList('ARGS|!ARGS:/^(a|b)$/|XML:/*|XML://@*|&TX:x')).toEqual(['ARGS', '!ARGS:/^(a|b)$/', 'XML:/*', 'XML://@*', '&TX:x']);
  });
});
