import type { PhraseRule } from './phrase-match';
import {
  NEGATIONS,
  THE_USER,
  SECRETS,
  EXFIL_VERBS,
  MOVING_VERBS,
  DESTINATIONS,
  SENSITIVE_PATHS,
  OTHER_TOOLS_EN,
} from './phrase-vocabulary';

/** Rules over normalized text (see `normalizeForMatching`); Latin terms match whole words. */
export const PHRASE_RULES: readonly PhraseRule[] = [
  // Overriding the agent's own instructions.
  {
    code: 'IGNORE_INSTRUCTIONS',
    why: 'tells the model to drop its instructions (English)',
    gap: 40,
    terms: [
      ['ignore', 'ignoring', 'disregard', 'forget', 'override', 'bypass'],
      [
        'previous',
        'prior',
        'above',
        'earlier',
        'preceding',
        'all',
        'any',
        'your',
        'system',
        'original',
        'other',
        'the',
      ],
      [
        'instructions',
        'instruction',
        'prompt',
        'prompts',
        'directions',
        'directives',
        'guidelines',
        'system message',
        'safety rules',
      ],
    ],
  },
  {
    code: 'IGNORE_INSTRUCTIONS',
    why: 'tells the model to drop its instructions (Japanese)',
    gap: 12,
    terms: [
      ['指示', '命令', '指令', 'ルール', 'プロンプト', '制約'],
      ['を無視', 'は無視', 'を忘れ', 'は忘れ', 'に従わ', 'を破棄'],
    ],
  },
  {
    code: 'IGNORE_INSTRUCTIONS',
    why: 'tells the model to drop its instructions (Chinese)',
    gap: 12,
    terms: [
      ['忽略', '无视', '忽视', '忘记', '無視', '忘記', '不要遵守', '不再遵守'],
      ['指令', '指示', '提示词', '规则', '規則', '命令', '设定'],
    ],
  },
  {
    code: 'IGNORE_INSTRUCTIONS',
    why: 'fake end of the system prompt',
    gap: 0,
    terms: [['</system>', '<|im_start|>', '<|im_end|>', '[/inst]', 'end of system prompt', 'new system prompt']],
  },
  // Keeping the user in the dark.
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks not to tell the user',
    gap: 16,
    terms: [NEGATIONS, ['tell', 'inform', 'let'], THE_USER],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks not to mention or reveal something to the user',
    gap: 30,
    terms: [
      NEGATIONS,
      ['mention', 'reveal', 'disclose', 'show', 'report'],
      ['to the user', 'to users', 'to the human', 'in your response', 'in the response', 'in your answer'],
    ],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks to act without the user knowing',
    gap: 10,
    terms: [['without'], ['telling', 'informing', 'letting', 'alerting'], THE_USER],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks to keep something secret from the user',
    gap: 30,
    terms: [
      ['keep', 'hide', 'conceal'],
      ['secret', 'hidden', 'confidential', 'this', 'it'],
      ['from the user', 'from users', 'from the human'],
    ],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'says the user must not know',
    gap: 10,
    terms: [
      ['the user', 'users'],
      ['must not', "mustn't", 'should not', "shouldn't", 'must never', 'should never'],
      ['know', 'see', 'notice', 'be told', 'be informed', 'find out', 'learn'],
    ],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks not to tell the user (Japanese)',
    gap: 8,
    terms: [
      ['ユーザー', 'ユーザ', '利用者', '使用者'],
      ['に伝え', 'に言わ', 'に知らせ', 'に教え', 'に見せ', 'に報告し', 'には秘密', 'に気づかれ', 'に知られ'],
      ['ない', 'ず', 'るな', 'に'],
    ],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks not to tell the user (Chinese)',
    gap: 8,
    terms: [
      ['不要', '别', '不得', '切勿', '不可', '禁止', '不能', '无需', '不必'],
      ['告诉', '告知', '透露', '提及', '让', '向', '对'],
      ['用户', '使用者'],
    ],
  },
  {
    code: 'CONCEAL_FROM_USER',
    why: 'asks to keep something from the user (Chinese)',
    gap: 4,
    terms: [
      ['对用户', '向用户', '瞒着用户', '不让用户'],
      ['保密', '隐瞒', '知道', '隐藏'],
    ],
  },
  // Credential files. Reading one is what a tool may do itself ("the key is read from ~/.ssh"), so
  // a verb before the path needs a destination after it, and after the path only verbs that move
  // data count (and the Japanese and Chinese ones, where the object comes first).
  {
    code: 'SECRET_FILE',
    why: 'asks to read a credential file and put it somewhere',
    gap: 60,
    terms: [EXFIL_VERBS, SENSITIVE_PATHS, DESTINATIONS],
  },
  { code: 'SECRET_FILE', why: 'asks to pass a credential file on', gap: 30, terms: [SENSITIVE_PATHS, MOVING_VERBS] },
  { code: 'SENSITIVE_PATH', why: 'names a credential file', gap: 0, terms: [SENSITIVE_PATHS] },
  // Secrets wanted in an argument: low alone, raised when the same field also gives orders.
  { code: 'SECRET_REQUEST', why: 'asks to pass a secret', gap: 50, terms: [EXFIL_VERBS, SECRETS] },
  { code: 'SECRET_REQUEST', why: 'asks to pass a secret', gap: 20, terms: [SECRETS, EXFIL_VERBS] },
  // Orders to the model about when and how to use tools.
  {
    code: 'MODEL_DIRECTIVE',
    why: 'orders about other tools',
    gap: 20,
    terms: [
      [
        'before',
        'after',
        'when',
        'whenever',
        'every time',
        'instead of',
        'prior to',
        'do not use',
        'never use',
        'never call',
        'do not call',
      ],
      ['using', 'calling', 'invoking', 'running', ''],
      OTHER_TOOLS_EN,
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'speaks to the model',
    gap: 0,
    terms: [
      [
        '<important>',
        '<system>',
        '[system]',
        '<instructions>',
        'you are an ai',
        'as an ai',
        'ai assistant must',
        'the assistant must',
        'the model must',
        'the llm must',
        'you must first',
        'you must always',
        'always call this tool first',
        'call this tool first',
        'must be called before',
        'you must call',
        'this tool must always be used',
      ],
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'orders to send data elsewhere',
    gap: 40,
    terms: [
      ['always', 'must', 'instead'],
      ['send', 'forward', 'redirect', 'bcc', 'cc', 'copy'],
      ['to', 'as well'],
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'orders about other tools (Japanese)',
    gap: 10,
    terms: [
      ['他のツール', 'すべてのツール', '全てのツール', '任意のツール', 'どのツール', '別のツール'],
      ['前に', '前は', '際', '時', '代わり', 'より先'],
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'speaks to the model (Japanese)',
    gap: 0,
    terms: [
      [
        'あなたはaiアシスタント',
        'aiアシスタントは必ず',
        'モデルは必ず',
        '必ず最初にこのツール',
        'このツールを最初に',
        '必ず先にこのツール',
      ],
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'orders about other tools (Chinese)',
    gap: 10,
    terms: [
      ['其他工具', '任何工具', '所有工具', '别的工具', '任何其他工具'],
      ['之前', '以前', '时', '前', '代替', '之后'],
    ],
  },
  {
    code: 'MODEL_DIRECTIVE',
    why: 'speaks to the model (Chinese)',
    gap: 0,
    terms: [
      ['你必须', '你是一个ai', '助手必须', '模型必须', '首先调用此工具', '必须先调用', '务必先调用', '必须首先调用'],
    ],
  },
];
