// Lint with type information (typescript-eslint recommendedTypeChecked, exhaustive switches):
// promises that are dropped or passed where a void
// callback is expected, React hook rules, and the import boundaries that
// docs/architecture.md describes (lib/ is pure, components/ never reach server/).
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

const NODE_BUILTINS = [
  "node:*",
  "fs",
  "fs/*",
  "path",
  "os",
  "child_process",
  "crypto",
  "net",
  "http",
  "https",
  "stream",
  "stream/*",
  "events",
  "util",
  "url",
  "zlib",
  "readline",
  "worker_threads",
];

/** lib/'s layers, lowest first. */
const LIB_LAYERS = ["protocol", "contracts", "folds", "features"];
const LIB_PURE = [
  { group: NODE_BUILTINS, message: "lib/ is pure: no Node APIs (do I/O in server/)." },
  { group: ["react", "react-dom", "react/*"], message: "lib/ is pure: no React (views live in components/)." },
  {
    group: ["**/server/*", "**/components/*", "@/server/*", "@/components/*"],
    message: "lib/ imports only lib/.",
  },
];

/**
 * server/ in floors, lowest first: a module imports only its own floor and those below it
 * (docs/architecture.md, "Layout"). The ground is server/'s root modules (beside config.ts and
 * index.ts) and models/; folders on one floor do not import each other.
 */
const SERVER_FLOORS = [
  ["models", "ground"],
  ["config.ts"],
  ["transcripts"],
  ["agents"],
  ["otel", "wire"],
  ["stores", "tap"],
  ["http"],
  ["cli"],
  ["index.ts"],
];
const serverRoom = (room) => (room === "ground" ? [] : [room.replace(/\.ts$/, "")]);
/** The rooms a module of `room` may not import: every room above its floor, and its floor's others. */
function serverForbidden(room) {
  const floor = SERVER_FLOORS.findIndex((rooms) => rooms.includes(room));
  return SERVER_FLOORS.flatMap((rooms, i) => (i < floor ? [] : rooms.filter((r) => r !== room))).flatMap(serverRoom);
}
function serverFloorRules(room) {
  const names = serverForbidden(room).join("|");
  // From a folder the room is `../NAME`, from the root `./NAME`; a file room is NAME alone.
  const regex = `^${room.endsWith(".ts") || room === "ground" ? "\\./" : "(\\.\\./)+"}(${names})(/|$)`;
  const message = `server/ is in floors (${SERVER_FLOORS.map((r) => r.join(", ")).join(" < ")}): move what both need down a floor.`;
  return {
    "no-restricted-imports": ["error", { patterns: [{ regex, message }] }],
    // import(): the same floors (a lazy import is an import all the same).
    "no-restricted-syntax": [
      "error",
      { selector: `ImportExpression[source.value=/${regex.replaceAll("/", "\\/")}/]`, message },
    ],
  };
}

/** Every `eslint-disable` says why, after `--`: a rule turned off without a reason cannot be reviewed. */
const disableSaysWhy = {
  meta: { type: "suggestion", schema: [] },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          if (/^\s*eslint-disable/.test(comment.value) && !/\s--\s*\S/.test(comment.value))
            context.report({ loc: comment.loc, message: "Say why the rule is off, after `--`." });
        }
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "data/**",
      ".tmp/**",
      "dist/**",
      "test-results/**",
      "test/agents/node_modules/**",
      "next-env.d.ts",
      "**/*.js",
    ],
  },
  {
    plugins: { local: { rules: { "disable-says-why": disableSaysWhy } } },
    rules: { "local/disable-says-why": "error" },
  },
  {
    // The command, the build scripts and the fixture agents: JavaScript, linted without types.
    files: ["**/*.mjs"],
    extends: [tseslint.configs.recommended],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // A closure may read a variable before its one assignment (state reported while connecting).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // A default clause is a deliberate catch-all; a switch without one must name every case.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Tests poke at loosely shaped payloads on purpose (raw frames parsed from JSON, agents'
    // answers read field by field): typing each one would only restate the assertion.
    files: ["**/*.test.ts", "**/*.test.tsx", "test/**", "e2e/**", "bench/**", "scripts/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      // Fakes implement async interfaces with answers they already have.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  // lib/ in layers, each importing only the ones below it (docs/architecture.md).
  ...LIB_LAYERS.map((layer, i) => ({
    files: [`lib/${layer}/**/*.ts`],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...LIB_PURE,
            ...LIB_LAYERS.slice(i + 1).map((higher) => ({
              group: [`../${higher}/*`, `**/lib/${higher}/*`, `@/lib/${higher}/*`],
              message: `lib/${layer} is below lib/${higher}: it may import only ${LIB_LAYERS.slice(0, i + 1).join(", ")}.`,
            })),
          ],
        },
      ],
    },
  })),
  {
    files: ["lib/*.ts"],
    ignores: ["lib/*.d.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Program",
          message: `lib/ modules live in a layer: ${"lib/{protocol,contracts,folds,features}/"}.`,
        },
      ],
    },
  },
  // server/ in floors (SERVER_FLOORS): nothing imports a floor above its own.
  ...SERVER_FLOORS.flat()
    .filter((room) => serverForbidden(room).length > 0)
    .map((room) => ({
      files:
        room === "ground" ? ["server/*.ts"] : room.endsWith(".ts") ? [`server/${room}`] : [`server/${room}/**/*.ts`],
      ignores: ["server/**/*.test.ts", ...(room === "ground" ? ["server/config.ts", "server/index.ts"] : [])],
      rules: serverFloorRules(room),
    })),
  {
    files: ["components/**/*.ts", "components/**/*.tsx", "app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/*", "@/server/*"],
              message: "The browser never imports server/: share contracts through lib/.",
            },
            { group: NODE_BUILTINS, message: "Browser code: no Node APIs." },
          ],
        },
      ],
      // Next's own types declare Node's globals for every file that imports next, so a
      // components/ tsconfig without Node types still compiles them: lint refuses them instead.
      "no-restricted-globals": [
        "error",
        ...["process", "Buffer", "global", "__dirname", "__filename", "require", "setImmediate", "clearImmediate"].map(
          (name) => ({ name, message: "Browser code: no Node globals." }),
        ),
      ],
    },
  },
);
