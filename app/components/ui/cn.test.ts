import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { extendTailwindMerge } from "tailwind-merge";
import ts from "typescript";
import { describe, expect, it } from "vitest";

import { buttonVariants } from "./button.tsx";
import { cn } from "./cn.ts";

/*
 * cn() only joins class names (docs/decisions/052). If an element got two utilities for
 * the same property, say a Card's "p-6" and a caller's "p-0", both would reach the page
 * and the stylesheet's order, not the caller, would decide which one shows. So this file
 * reads the sources in app/, works out every class string each element can be rendered
 * with, and asks the full tailwind-merge whether it would drop any class from it.
 */

// The reference: the full tailwind-merge, told about the site's own theme (app/app.css).
const twMerge = extendTailwindMerge({
  extend: {
    theme: {
      text: ["display"],
      radius: ["card", "control"],
      shadow: ["card"],
      spacing: ["banner", "header"],
    },
  },
});

/** The classes tailwind-merge would drop because a later class sets the same thing. */
function overridden(classes: string): string[] {
  const kept = new Set(twMerge(classes).split(" "));
  return classes.split(/\s+/).filter((c) => c !== "" && !kept.has(c));
}

/** The cva helpers of app/, which the check calls to get their real output. */
const helpers: Record<string, (props?: Record<string, unknown>) => string> = {
  buttonVariants: buttonVariants as (props?: Record<string, unknown>) => string,
};

// ---- A small evaluator for the class expressions written in app/ ---------------------

const unknown = Symbol("unknown");
type Value =
  string | number | boolean | null | undefined | typeof unknown | { readonly [key: string]: Value };
type Env = ReadonlyMap<string, Value>;
type Ctx = { source: ts.SourceFile; env: Env; depth: number };
type Prop = { key: string; local: string; fallback: ts.Expression | undefined };
/**
 * A function component: the props it names, and the names its props object (`Card(props)`)
 * and the rest of its props (`{ className, ...rest }`) go by, if any.
 */
type Component = {
  name: string;
  source: ts.SourceFile;
  props: Prop[];
  propsName: string | undefined;
  restName: string | undefined;
};

const isRecord = (v: Value): v is { readonly [key: string]: Value } =>
  typeof v === "object" && v !== null;
const describeValue = (v: Value) => (typeof v === "symbol" ? "?" : JSON.stringify(v));
function unique<T>(values: T[], key: (v: T) => string = String): T[] {
  return [...new Map(values.map((v) => [key(v), v])).values()];
}
const uniqueValues = (values: Value[]) => unique(values, describeValue);

/** One possible class string from the values of cn()'s arguments, or unknown. */
function joinClasses(parts: Value[]): Value {
  if (parts.some((p) => p === unknown || p === true || typeof p === "number" || isRecord(p))) {
    return unknown;
  }
  return cn(...(parts as (string | false | null | undefined)[]));
}

function cartesian(lists: Value[][]): Value[][] {
  return lists.reduce<Value[][]>(
    (acc, list) => acc.flatMap((a) => list.map((v) => [...a, v])),
    [[]],
  );
}

type ClassReport = {
  /** Every class string an element in the sources can be rendered with. */
  checked: Set<string>;
  /** Class strings where a class would be overridden by a later one. */
  conflicts: string[];
  /** Class expressions the evaluator could not read. */
  unreadable: string[];
  /** The options of each cva helper, read from its declaration. */
  helperOptions: Map<string, Record<string, string[]>>;
};

/**
 * Works out, for every className attribute and every cn()/clsx()/cva helper call in
 * `files`, each class string it can produce. A component's props take the values its
 * callers pass (or its defaults), through any chain of components; conditions on other
 * values are taken both ways. Props passed by spreading an object are not seen.
 */
function checkClasses(
  files: { file: string; text: string }[],
  helperFns: typeof helpers,
): ClassReport {
  const sources = files.map(({ file, text }) =>
    ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    ),
  );
  const byFile = new Map(sources.map((s) => [s.fileName, s]));
  const constants = new Map<ts.SourceFile, Map<string, ts.Expression>>();
  const components = new Map<ts.Node, Component>();
  const usages: ts.JsxOpeningLikeElement[] = [];
  const sites: { node: ts.JsxAttribute | ts.CallExpression; source: ts.SourceFile }[] = [];
  const cvaDeclarations: { name: string; config: ts.Expression; source: ts.SourceFile }[] = [];
  const report: ClassReport = {
    checked: new Set(),
    conflicts: [],
    unreadable: [],
    helperOptions: new Map(),
  };
  const where = (node: ts.Node) => {
    const source = node.getSourceFile();
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    return `${source.fileName}:${line}`;
  };

  function addComponent(
    name: string,
    fn: ts.SignatureDeclaration & { body?: ts.Node | undefined },
    source: ts.SourceFile,
  ) {
    if (!/^[A-Z]/.test(name)) return;
    const first = fn.parameters[0]?.name;
    const props: Prop[] = [];
    let restName: string | undefined;
    const addProps = (pattern: ts.ObjectBindingPattern) => {
      for (const element of pattern.elements) {
        if (!ts.isIdentifier(element.name)) continue;
        if (element.dotDotDotToken) {
          restName = element.name.text;
          continue;
        }
        const key = element.propertyName?.getText() ?? element.name.text;
        props.push({ key, local: element.name.text, fallback: element.initializer });
      }
    };
    if (first && ts.isObjectBindingPattern(first)) addProps(first);
    const propsName = first && ts.isIdentifier(first) ? first.text : undefined;
    // function Card(props) { const { className } = props; ... }
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isObjectBindingPattern(node.name) &&
        node.initializer &&
        ts.isIdentifier(node.initializer) &&
        node.initializer.text === propsName
      ) {
        addProps(node.name);
      }
      ts.forEachChild(node, visit);
    };
    if (propsName && fn.body) visit(fn.body);
    components.set(fn, { name, source, props, propsName, restName });
  }

  for (const source of sources) {
    const locals = new Map<string, ts.Expression>();
    constants.set(source, locals);
    const visit = (node: ts.Node, inClassName: boolean) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (!locals.has(node.name.text)) locals.set(node.name.text, node.initializer);
        const init = node.initializer;
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
          addComponent(node.name.text, init, source);
        }
        if (ts.isCallExpression(init) && init.expression.getText() === "cva" && init.arguments[1]) {
          cvaDeclarations.push({ name: node.name.text, config: init.arguments[1], source });
        }
      }
      if (ts.isFunctionDeclaration(node) && node.name) addComponent(node.name.text, node, source);
      if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) usages.push(node);
      const isClassName = ts.isJsxAttribute(node) && node.name.getText() === "className";
      if (isClassName) sites.push({ node, source });
      if (
        !inClassName &&
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        (["cn", "clsx"].includes(node.expression.text) || node.expression.text in helperFns)
      ) {
        sites.push({ node, source });
      }
      ts.forEachChild(node, (child) => visit(child, inClassName || isClassName));
    };
    visit(source, false);
  }

  function enclosingComponent(node: ts.Node): Component | undefined {
    for (let n = node.parent; n; n = n.parent) {
      const component = components.get(n);
      if (component) return component;
    }
    return undefined;
  }

  function importedConstant(source: ts.SourceFile, name: string) {
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
      const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
      const named = statement.importClause?.namedBindings;
      if (!spec.startsWith(".") || !named || !ts.isNamedImports(named)) continue;
      const element = named.elements.find((e) => e.name.text === name);
      if (!element) continue;
      const target = byFile.get(path.join(path.dirname(source.fileName), spec));
      const init = target && constants.get(target)?.get(element.propertyName?.text ?? name);
      if (target && init) return { source: target, init };
    }
    return undefined;
  }

  function lookup(name: string, ctx: Ctx): Value[] {
    if (name === "undefined") return [undefined];
    if (ctx.env.has(name)) return [ctx.env.get(name)];
    const next = { ...ctx, depth: ctx.depth + 1 };
    const local = constants.get(ctx.source)?.get(name);
    if (local) return evaluate(local, next);
    const imported = importedConstant(ctx.source, name);
    if (imported) return evaluate(imported.init, { ...next, source: imported.source });
    return [unknown];
  }

  function evaluate(node: ts.Expression, ctx: Ctx): Value[] {
    if (ctx.depth > 30) return [unknown];
    const at = (n: ts.Expression) => evaluate(n, ctx);
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isNonNullExpression(node)
    ) {
      return at(node.expression);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isNumericLiteral(node)) return [Number(node.text)];
    if (node.kind === ts.SyntaxKind.TrueKeyword) return [true];
    if (node.kind === ts.SyntaxKind.FalseKeyword) return [false];
    if (node.kind === ts.SyntaxKind.NullKeyword) return [null];
    if (ts.isIdentifier(node)) return lookup(node.text, ctx);
    if (ts.isTemplateExpression(node)) {
      const parts = [
        [node.head.text],
        ...node.templateSpans.flatMap((s) => [at(s.expression), [s.literal.text]]),
      ];
      return uniqueValues(
        cartesian(parts).map((p) =>
          p.every((v) => typeof v === "string" || typeof v === "number") ? p.join("") : unknown,
        ),
      );
    }
    if (ts.isConditionalExpression(node)) {
      return uniqueValues(
        at(node.condition).flatMap((c) =>
          c === unknown
            ? [...at(node.whenTrue), ...at(node.whenFalse)]
            : at(c ? node.whenTrue : node.whenFalse),
        ),
      );
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      return uniqueValues(at(node.operand).map((v) => (v === unknown ? unknown : !v)));
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      const left = at(node.left);
      const right = () => at(node.right);
      const K = ts.SyntaxKind;
      if (op === K.AmpersandAmpersandToken) {
        return uniqueValues(
          left.flatMap((l) => (l === unknown ? [false, ...right()] : l ? right() : [l])),
        );
      }
      if (op === K.BarBarToken) {
        return uniqueValues(
          left.flatMap((l) => (l === unknown ? [unknown, ...right()] : l ? [l] : right())),
        );
      }
      if (op === K.QuestionQuestionToken) {
        return uniqueValues(
          left.flatMap((l) => (l === unknown ? [unknown, ...right()] : l == null ? right() : [l])),
        );
      }
      const equality = [K.EqualsEqualsEqualsToken, K.ExclamationEqualsEqualsToken];
      if (equality.includes(op)) {
        return uniqueValues(
          cartesian([left, right()]).map(([l, r]) =>
            l === unknown || r === unknown || isRecord(l) || isRecord(r)
              ? unknown
              : (l === r) === (op === K.EqualsEqualsEqualsToken),
          ),
        );
      }
      return [unknown];
    }
    if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node)) {
      const entries: [string, Value[]][] = [];
      if (ts.isArrayLiteralExpression(node)) {
        node.elements.forEach((e, i) => entries.push([String(i), at(e)]));
      } else {
        for (const p of node.properties) {
          if (ts.isShorthandPropertyAssignment(p))
            entries.push([p.name.text, lookup(p.name.text, ctx)]);
          else if (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name)) {
            entries.push([p.name.text, at(p.initializer)]);
          } else return [unknown];
        }
      }
      const keys = entries.map(([k]) => k);
      return cartesian(entries.map(([, v]) => v)).map((vs) =>
        Object.fromEntries(vs.map((v, i) => [keys[i], v])),
      );
    }
    if (ts.isElementAccessExpression(node)) {
      // An unknown key may be any of the object's keys: tones[tone] is any tone.
      const keys = at(node.argumentExpression);
      const entry = (o: { readonly [key: string]: Value }, k: Value): Value[] => {
        if (k === unknown) return Object.values(o);
        const key = typeof k === "string" || typeof k === "number" ? String(k) : undefined;
        return key !== undefined && Object.hasOwn(o, key) ? [o[key]] : [unknown];
      };
      return uniqueValues(
        at(node.expression).flatMap((o) =>
          isRecord(o) ? keys.flatMap((k) => entry(o, k)) : [unknown],
        ),
      );
    }
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      return uniqueValues(
        at(node.expression).map((o) => (isRecord(o) && Object.hasOwn(o, name) ? o[name] : unknown)),
      );
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const callee = node.expression.text;
      if (callee === "cn" || callee === "clsx") {
        return uniqueValues(cartesian(node.arguments.map(at)).map(joinClasses));
      }
      const helper = helperFns[callee];
      if (helper) {
        const props = node.arguments[0] ? at(node.arguments[0]) : [{}];
        return uniqueValues(
          props.map((p) =>
            isRecord(p) && Object.values(p).every((v) => v !== unknown && !isRecord(v))
              ? helper(p)
              : unknown,
          ),
        );
      }
    }
    return [unknown];
  }

  function attributeValues(attr: ts.JsxAttribute, ctx: Ctx): Value[] {
    const init = attr.initializer;
    if (!init) return [true];
    if (ts.isStringLiteral(init)) return [init.text];
    if (ts.isJsxExpression(init))
      return init.expression ? evaluate(init.expression, ctx) : [undefined];
    return [unknown];
  }

  const envCache = new Map<string, Env[]>();
  const empty: Env = new Map();
  /** Where the component was rendered with these values, for the report. */
  const renderedAt = new WeakMap<Env, string>();

  /** Every set of prop values the component is rendered with in the sources. */
  function envsOf(component: Component | undefined, stack: string[] = []): Env[] {
    if (!component || stack.includes(component.name)) return [empty];
    const cached = envCache.get(component.name);
    if (cached) return cached;
    const envs: Env[] = [];
    const bind = (passed: ReadonlyMap<string, Value>, at?: string) => {
      const fallbacks = component.props.map((prop): Value[] =>
        passed.has(prop.key)
          ? [passed.get(prop.key)]
          : prop.fallback
            ? evaluate(prop.fallback, { source: component.source, env: empty, depth: 0 })
            : [undefined],
      );
      const declared = new Set(component.props.map((p) => p.key));
      for (const values of cartesian(fallbacks)) {
        const env = new Map<string, Value>(component.props.map((p, i) => [p.local, values[i]]));
        if (component.propsName) env.set(component.propsName, Object.fromEntries(passed));
        if (component.restName) {
          const rest = [...passed].filter(([key]) => !declared.has(key));
          env.set(component.restName, Object.fromEntries(rest));
        }
        if (at) renderedAt.set(env, at);
        envs.push(env);
      }
    };
    // <Card> or <radix.Card>
    const calls = usages.filter((u) => u.tagName.getText().split(".").pop() === component.name);
    if (calls.length === 0) bind(new Map());
    for (const call of calls) {
      for (const env of envsOf(enclosingComponent(call), [...stack, component.name])) {
        const ctx = { source: call.getSourceFile(), env, depth: 0 };
        // Each set of props this call can pass: its attributes and the objects spread into it.
        let passed: Map<string, Value>[] = [new Map()];
        for (const attr of call.attributes.properties) {
          if (ts.isJsxAttribute(attr)) {
            const values = attributeValues(attr, ctx);
            passed = passed.flatMap((m) =>
              values.map((v) => new Map(m).set(attr.name.getText(), v)),
            );
          } else {
            const objects = evaluate(attr.expression, ctx).filter(isRecord);
            if (objects.length === 0) continue; // an object we cannot read: not seen
            passed = passed.flatMap((m) =>
              objects.map((o) => new Map([...m, ...Object.entries(o)])),
            );
          }
        }
        for (const props of passed) bind(props, where(call));
      }
    }
    const result = unique(envs, (e) => [...e].map(([k, v]) => `${k}=${describeValue(v)}`).join());
    envCache.set(component.name, result);
    return result;
  }

  for (const { node, source } of sites) {
    for (const env of envsOf(enclosingComponent(node))) {
      const ctx = { source, env, depth: 0 };
      const from = renderedAt.get(env);
      const place = from ? `${where(node)} (rendered at ${from})` : where(node);
      const values = ts.isJsxAttribute(node) ? attributeValues(node, ctx) : evaluate(node, ctx);
      for (const value of values) {
        if (value === false || value == null || value === "") continue;
        if (typeof value !== "string") {
          report.unreadable.push(`${place}: ${node.getText()}`);
          continue;
        }
        report.checked.add(value);
        const lost = overridden(value);
        if (lost.length > 0) {
          report.conflicts.push(`${place}: "${value}" would lose ${lost.join(" ")}`);
        }
      }
    }
  }

  for (const { name, config, source } of cvaDeclarations) {
    if (!(name in helperFns)) {
      report.unreadable.push(`${name}: a cva helper cn.test.ts does not import yet`);
      continue;
    }
    const [options] = evaluate(config, { source, env: empty, depth: 0 });
    const variants = isRecord(options) ? options.variants : undefined;
    if (!isRecord(variants)) continue;
    report.helperOptions.set(
      name,
      Object.fromEntries(
        Object.entries(variants).map(([k, v]) => [k, isRecord(v) ? Object.keys(v) : []]),
      ),
    );
  }

  report.conflicts = unique(report.conflicts);
  report.unreadable = unique(report.unreadable);
  return report;
}

// ---- The checks ----------------------------------------------------------------------

const root = path.resolve(import.meta.dirname, "../../..");
/** The sources of app/, named from the project root; cn.ts only passes its arguments on. */
function appSources() {
  return (readdirSync(path.join(root, "app"), { recursive: true }) as string[])
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$|[/\\]cn\.ts$/.test(name))
    .map((name) => ({
      file: path.join("app", name),
      text: readFileSync(path.join(root, "app", name), "utf8"),
    }));
}

describe("cn", () => {
  it("joins class names, dropping empty ones, and merges nothing", () => {
    expect(cn("px-3", false, undefined, null, "", "py-2")).toBe("px-3 py-2");
    expect(cn("hidden", { "sm:block": true, "lg:flex": false })).toBe("hidden sm:block");
    // Conflicts are kept as written; the check below makes sure app/ never writes one.
    expect(cn("p-6", "p-0")).toBe("p-6 p-0");
  });
});

describe("classes rendered by app/", () => {
  const report = checkClasses(appSources(), helpers);

  it("can all be read", () => {
    expect(report.unreadable, "write these as literals, or teach cn.test.ts to read them").toEqual(
      [],
    );
  });

  it("never hold two utilities for the same property", () => {
    // A conflict: give the component an option (as Card and Section have `padding`, Button
    // has `size`) instead of overriding its classes from outside.
    expect(report.conflicts).toEqual([]);
  });

  it("include every variant combination of every cva helper, none of them in conflict", () => {
    const options = report.helperOptions.get("buttonVariants");
    expect(options?.variant).toContain("quiet");
    expect(options?.size).toContain("flush");
    for (const [name, variants] of report.helperOptions) {
      const keys = Object.keys(variants);
      const combos = keys.reduce<Record<string, string>[]>(
        (acc, key) => acc.flatMap((c) => (variants[key] ?? []).map((v) => ({ ...c, [key]: v }))),
        [{}],
      );
      for (const combo of combos) {
        const classes = helpers[name]!(combo);
        expect(overridden(classes), `${name}(${JSON.stringify(combo)})`).toEqual([]);
      }
    }
  });

  it("follow props from the pages through the components that use them", () => {
    expect(report.checked.size).toBeGreaterThan(150);
    // A quiet link on the home page, through ButtonLink and buttonVariants.
    expect(report.checked).toContain(
      cn(buttonVariants({ variant: "quiet", size: "flush" }), "mt-6"),
    );
    // The contact page's section that continues the one above it.
    expect(report.checked).toContain("pb-14 sm:pb-20");
  });
});

describe("the class check", () => {
  const card = {
    file: "v/card.tsx",
    text: `export function Card({ padding = "standard", className }) {
      return <div className={cn("border", padding === "standard" && "p-6", className)} />;
    }`,
  };
  const check = (page: string) => checkClasses([card, { file: "v/page.tsx", text: page }], helpers);

  it("reports a caller that overrides a component's own classes", () => {
    expect(check(`export const Page = () => <Card className="p-0" />;`).conflicts).toEqual([
      'v/card.tsx:2 (rendered at v/page.tsx:1): "border p-6 p-0" would lose p-6',
    ]);
    expect(
      check(`export const Page = () => <Card padding="none" className="p-0" />;`).conflicts,
    ).toEqual([]);
  });

  it("reports an override of a helper's classes, and conflicts within one element", () => {
    const page = `
      export function Page() {
        const wide = useWide();
        return (
          <>
            <a className={buttonVariants({ size: "sm", className: "px-8" })} />
            <p className={cn("text-sm", wide ? "text-lg" : "text-ink")} />
          </>
        );
      }`;
    const { conflicts } = check(page);
    expect(conflicts).toHaveLength(2);
    expect(conflicts[0]).toMatch(/would lose px-4$/);
    expect(conflicts[1]).toBe('v/page.tsx:7: "text-sm text-lg" would lose text-sm');
  });

  it("follows a prop through a chain of components", () => {
    const page = `
      function Panel({ className }) { return <Card className={className} />; }
      export const Page = () => <Panel className="p-2" />;`;
    // Reported where Panel renders the Card, with the class Panel's caller passed.
    expect(check(page).conflicts).toEqual([
      'v/card.tsx:2 (rendered at v/page.tsx:2): "border p-6 p-2" would lose p-6',
    ]);
  });

  it("follows props handed on whole", () => {
    const page = `
      function Panel(props) { const { tone } = props; return <Card {...props} />; }
      export const Page = () => <Panel tone="x" className="p-3" />;`;
    expect(check(page).conflicts).toEqual([
      'v/card.tsx:2 (rendered at v/page.tsx:2): "border p-6 p-3" would lose p-6',
    ]);
  });

  it("follows props handed on as the rest of them", () => {
    const page = `
      function Panel({ tone, ...rest }) { return <Card {...rest} />; }
      export const Page = () => <Panel tone="x" padding="none" className="p-3" />;`;
    expect(check(page).conflicts).toEqual([]);
    expect(check(page.replace('padding="none" ', "")).conflicts).toHaveLength(1);
  });

  it("reports class expressions it cannot read", () => {
    expect(check(`export const Page = () => <p className={pick()} />;`).unreadable).toEqual([
      "v/page.tsx:1: className={pick()}",
    ]);
  });
});
