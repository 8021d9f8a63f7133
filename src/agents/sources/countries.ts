/**
 * Country names → ISO 3166-1 alpha-2, built from the runtime's ICU data (Intl.DisplayNames), so
 * no table has to be maintained. Registries write countries as free text ("England", "Iran").
 */

const UK_NATIONS = ['united kingdom', 'england', 'scotland', 'wales', 'northern ireland', 'great britain', 'uk'];
const EXTRA: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  'russian federation': 'RU',
  'iran, islamic republic of': 'IR',
  "korea, democratic people's republic of": 'KP',
  'north korea': 'KP',
  'south korea': 'KR',
  burma: 'MM',
  'british virgin islands': 'VG',
  'virgin islands, british': 'VG',
};

let byName: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        name = undefined;
      }
      if (name && name !== code) byName.set(name.toLowerCase(), code);
    }
  }
  for (const n of UK_NATIONS) byName.set(n, 'GB');
  for (const [n, c] of Object.entries(EXTRA)) byName.set(n, c);
  return byName;
}

/** ISO alpha-2 for a country name or code; undefined when unknown. */
export function countryToIso2(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^[A-Za-z]{2}$/.test(v)) return v.toUpperCase();
  return table().get(v.toLowerCase());
}
