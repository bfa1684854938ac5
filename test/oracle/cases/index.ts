import type { OracleCase } from "../oracle-case.ts";
import { ANTHROPIC_1_CASES } from "./anthropic-1.ts";
import { ANTHROPIC_2_CASES } from "./anthropic-2.ts";
import { ANTHROPIC_3_CASES } from "./anthropic-3.ts";
import { ANTHROPIC_4_CASES } from "./anthropic-4.ts";
import { ANTHROPIC_5_CASES } from "./anthropic-5.ts";
import { BEDROCK_CASES } from "./bedrock.ts";
import { CORRECTION_CASES } from "./corrections.ts";
import { DEEPSEEK_CASES } from "./deepseek.ts";
import { DEEPSEEK_2_CASES } from "./deepseek-2.ts";
import { GEMINI_1_CASES } from "./gemini-1.ts";
import { GEMINI_2_CASES } from "./gemini-2.ts";
import { OPENAI_1_CASES } from "./openai-1.ts";
import { OPENAI_2_CASES } from "./openai-2.ts";
import { OPENAI_3_CASES } from "./openai-3.ts";
import { OPENAI_4_CASES } from "./openai-4.ts";
import { OPENAI_5_CASES } from "./openai-5.ts";
import { OPENAI_6_CASES } from "./openai-6.ts";
import { OPENAI_7_CASES } from "./openai-7.ts";
import { PLATFORM_CASES } from "./platforms.ts";
import { XAI_CASES } from "./xai.ts";
import { XAI_2_CASES } from "./xai-2.ts";
import { XAI_3_CASES } from "./xai-3.ts";

/** Every hand-worked case, by vendor. */
export const ORACLE_CASES: OracleCase[] = [
  ...OPENAI_1_CASES,
  ...OPENAI_2_CASES,
  ...OPENAI_3_CASES,
  ...OPENAI_4_CASES,
  ...OPENAI_5_CASES,
  ...OPENAI_6_CASES,
  ...OPENAI_7_CASES,
  ...ANTHROPIC_1_CASES,
  ...ANTHROPIC_2_CASES,
  ...ANTHROPIC_3_CASES,
  ...ANTHROPIC_4_CASES,
  ...ANTHROPIC_5_CASES,
  ...BEDROCK_CASES,
  ...GEMINI_1_CASES,
  ...GEMINI_2_CASES,
  ...XAI_CASES,
  ...XAI_2_CASES,
  ...XAI_3_CASES,
  ...DEEPSEEK_CASES,
  ...DEEPSEEK_2_CASES,
  ...PLATFORM_CASES,
  ...CORRECTION_CASES,
];
