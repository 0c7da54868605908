export { toolCard, formatCard, riskOf } from './tool-card';
export type { ToolCard, CardArgument, RiskBasis } from './tool-card';
export { lintCatalog, isVagueName, selfQuery, LINT_CODES } from './catalog-lint';
export type { Finding, LintCode, LintOptions, LintReport, ServerScore, Severity } from './catalog-lint';
