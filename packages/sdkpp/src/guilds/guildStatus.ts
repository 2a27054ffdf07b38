/** A guild's state as the desktop client reports it (GUILD_STATUS). */
export interface GuildStatus {
  /** The guild id. */
  guildId: string;
  /** The guild's name. */
  name: string;
  /** The guild's icon on the CDN, or null when it has none. */
  iconUrl: string | null;
  /** The platform documents this count as deprecated and always 0; kept as sent. */
  online: number;
}

/** Reads GUILD_STATUS's data, or undefined when it is malformed (the caller logs and drops it). */
export function guildStatusFromWire(data: unknown): GuildStatus | undefined {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const guild =
    typeof d.guild === 'object' && d.guild !== null ? (d.guild as Record<string, unknown>) : undefined;
  if (!guild || typeof guild.id !== 'string' || typeof guild.name !== 'string') return undefined;
  return {
    guildId: guild.id,
    name: guild.name,
    iconUrl: typeof guild.icon_url === 'string' ? guild.icon_url : null,
    online: typeof d.online === 'number' && Number.isFinite(d.online) ? d.online : 0,
  };
}
