// The BDD globals web-test-runner's mocha provides in the page. @types/mocha is not installed (and
// the project's tsconfig lists only node types), so the few we use are declared here.
type MochaDone = (err?: unknown) => void;
type MochaFn = (this: unknown, done: MochaDone) => unknown;

declare function describe(title: string, fn: () => void): void;
declare function it(title: string, fn: MochaFn): void;
declare function before(fn: MochaFn): void;
declare function after(fn: MochaFn): void;
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
