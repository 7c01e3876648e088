// The games' tables, by engine key: adding a game is one module here and one line below
// (docs/engine.md's recipe says so).

import type { GameTable } from "../svg";
import { clear } from "./clear";
import { donsol } from "./donsol";
import { scoundrel } from "./scoundrel";
import { tomb } from "./tomb";

export const TABLES: Record<string, GameTable> = {
  donsol,
  tomb,
  clear,
  scoundrel,
};
