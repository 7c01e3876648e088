// Signing in the Activity way: the Embedded App SDK inside Discord (a `frame_id` in the query
// string), else the SDK's own DiscordSDKMock whose authorize code comes from `?mock_code=`,
// so a test signs in as the user it chose through the server's real code exchange.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { Api } from "./api";

export interface Session {
  api: Api;
  inDiscord: boolean;
}

type Sdk = DiscordSDK | DiscordSDKMock;

export async function signIn(): Promise<Session> {
  const query = new URLSearchParams(window.location.search);
  const inDiscord = query.has("frame_id");
  const base = inDiscord ? "/.proxy" : "";
  const config = { client_id: await clientId(base, inDiscord) };
  let sdk: Sdk;
  if (inDiscord) {
    sdk = new DiscordSDK(config.client_id);
  } else {
    const mock = new DiscordSDKMock(config.client_id, query.get("mock_guild"),
      query.get("mock_channel"), null);
    const code = query.get("mock_code") ?? "";
    mock._updateCommandMocks({ authorize: async () => ({ code }) });
    sdk = mock;
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "guilds"],
  });
  const api = new Api(base, sdk.guildId ?? null);
  const token = await api.post<{ access_token: string }>("token", { code });
  api.token = token.access_token;
  await sdk.commands.authenticate({ access_token: token.access_token });
  return { api, inDiscord };
}

/** The application's id: `/api/config`'s; else, inside Discord, the page's own host name
 * (`<client id>.discordsays.com`); else (the mock) any id. */
async function clientId(base: string, inDiscord: boolean): Promise<string> {
  try {
    const config = await new Api(base, null).get<{ client_id: string }>("config");
    if (config.client_id) return String(config.client_id);
  } catch {
    // An older server without /api/config: the host name still says it inside Discord.
  }
  const host = window.location.hostname.split(".")[0];
  return inDiscord && /^\d+$/.test(host) ? host : "0";
}
