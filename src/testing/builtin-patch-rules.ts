/** Test support: the patch rules of the three built-in benchmarks, without loading their definitions. */
import { ALFWORLD_PATCH_RULES } from '../benchmarks/alfworld/patch-rules.js';
import { DBBENCH_PATCH_RULES } from '../benchmarks/dbbench/patch-rules.js';
import { WEBSHOP_PATCH_RULES } from '../benchmarks/webshop/patch-rules.js';
import { patchRulesLookup } from '../patch/index.js';

export const BUILTIN_PATCH_RULES = patchRulesLookup([WEBSHOP_PATCH_RULES, ALFWORLD_PATCH_RULES, DBBENCH_PATCH_RULES]);
