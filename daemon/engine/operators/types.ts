// See ../CONTRACT.md: the interface between the rule compiler and the operators.
export interface OperatorCompileContext {
  file: string;
  line: number;
  ruleDir: string;
}

export interface OperatorRuntime {
  expandMacros(text: string): string;
  readonly capturing: boolean;
  setCapture(index: number, value: string): void;
}

export type OperatorEvaluate = (input: string, runtime: OperatorRuntime) => boolean;
export type OperatorFactory = (param: string, ctx: OperatorCompileContext) => OperatorEvaluate;
