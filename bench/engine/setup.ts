// The configuration every engine benchmark loads: CRS 3.3.4 from Debian's package, engine On,
// request bodies read, the JSON/XML body processors chosen by Content-Type as CRS's
// recommended setup does.
export const CRS_RULES = '/usr/share/modsecurity-crs/rules';
export const CRS_SETUP = '/etc/modsecurity/crs/crs-setup.conf';
export const BENCH_BASE = `SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^(?:application(?:/soap\\+|/)|text/)xml" "id:200000,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:200001,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRequestBodyLimit 13107200
SecRequestBodyNoFilesLimit 131072`;
