import { describe, expect, it } from 'vitest';
import { ruleGroupOf } from '../../../daemon/ingest/rule-group.js';

describe('ruleGroupOf', () => {
  it.each([
    ['/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf', '942100', 'crs'],
    ['/etc/wafctl/cms-wordpress.conf', '1', 'cms'],
    ['/etc/wafctl/rules/cms/plugins.conf', '1', 'cms'],
    ['C:\\waf\\WordPress-exclusions.conf', '1', 'cms'],
    ['/etc/wafctl/anything.conf', '200110', 'cms'],
    ['/etc/wafctl/modsecurity.conf', '200002', 'crs'], // ModSecurity's base rule, not ours
    ['/etc/wafctl/anything.conf', '201000', 'crs'],
    ['/etc/cms-x/REQUEST-913.conf', '913100', 'crs'],
  ])('%s rule %s is %s, the same when asked again', (file, id, group) => {
    expect(ruleGroupOf(file, id)).toBe(group);
    expect(ruleGroupOf(file, id)).toBe(group);
  });

  it('keeps answering right past the memo bound', () => {
    for (let i = 0; i < 3000; i++) {
      expect(ruleGroupOf(`/rules/${i}/cms-${i}.conf`, '1')).toBe('cms');
      expect(ruleGroupOf(`/rules/${i}/crs-${i}.conf`, '1')).toBe('crs');
    }
    expect(ruleGroupOf('/rules/0/cms-0.conf', '1')).toBe('cms');
  });
});
