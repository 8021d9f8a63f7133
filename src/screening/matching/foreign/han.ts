/**
 * A foreign name written in Chinese characters, read back (issue 32).
 *
 * Chinese writes a foreign name with a fixed set of characters, one per syllable, chosen from
 * transcription tables (音译表): a consonant with no vowel after it has a character of its own (德 d,
 * 特 t, 克 k, 格 g, 布 b, 普 p, 夫 f/v, 斯 s, 兹 z, 茨 ts, 什 sh, 日 zh, 赫 kh, 姆 m, 恩 n, 尔 r/l), every
 * consonant + vowel another (梅 me, 米 mi, 里 ri/li, 韦 ve, 杰 de/je, 季 di/ti). The grid below is the
 * Russian–Chinese table (俄汉音译表) of the Xinhua News Agency's naming office (新华社译名室,《俄语姓名
 * 译名手册》; the same table is printed in the appendix of《英汉大词典》), whose rows are the Russian
 * consonants and whose columns the vowels, supplemented with the characters the English–Chinese table
 * (英汉音译表,《英语姓名译名手册》) and the Arabic names in Xinhua use add (威 wi, 沃 wo, 迪 di, 卜 b,
 * 罕 han, 默 mo, 侯 hu, 本 bin). Written out here by row and column (not copied), in the Latin sounds of
 * pattern.ts: each character reads as every cell it stands in. Feminine characters (娅 娜 莉 丽 莎 娃
 * 玛 琳 妮 芭 黛 蕾 珍 萝 霞 秀) read as their plain counterparts.
 *
 * A word is read only when every character of it is in this table: a Chinese personal name (王秀英,
 * 张伟) mostly holds characters no transcription uses, and is left to the Chinese reading of text.ts.
 */
import { type Segment } from './pattern';

// columns: the vowel after the consonant ('-' none)
const COLUMN: Record<string, string[]> = {
  '-': [''], a: ['a'], ia: ['ia', 'a'], e: ['e', 'ie'], ie: ['e', 'ie'], y: ['i', 'e'], i: ['i'], o: ['o', 'a'], io: ['io', 'o', 'e', 'ie'],
  u: ['u', 'o'], iu: ['iu', 'u'], ai: ['ai', 'ei', 'e', 'ai'], ao: ['ao', 'au', 'o'], an: ['an', 'am'], ian: ['ian', 'an', 'ien'], en: ['en', 'ien', 'in', 'em'],
  in: ['in', 'im', 'en'], on: ['on', 'un', 'ong'], ui: ['ui', 'wi', 'ue'], ou: ['u', 'o', 'ou'],
};
// rows: the consonant
const ROW: Record<string, string[]> = {
  '': [''], b: ['b', 'p'], p: ['p', 'b'], d: ['d', 't'], t: ['t', 'd'], g: ['g', 'k'], k: ['k', 'g', 'h'], v: ['v', 'w', 'f'], f: ['f', 'v'],
  z: ['z', 'dz', 's'], s: ['s', 'S', 'z'], zh: ['Z', 'j', 'z'], sh: ['S', 's'], j: ['j', 'd', 'g', 'z', 'Z'], ch: ['C', 'T', 't'], shch: ['S', 'SC'],
  ts: ['T', 'z', 'C'], h: ['h', 'k'], m: ['m'], n: ['n'], l: ['l', 'r'], w: ['w', 'v', 'u'], y: ['i', ''],
};

// Row: col+characters … (the Russian–Chinese grid; English and Arabic additions after '|')
const GRID = `
: a阿 ia亚娅 e埃 ie耶叶 y厄 i伊 o奥 io约 u乌 iu尤 ai艾 ao奥 an安 ian扬 en延 in因 on翁 ou欧 | e爱 o欧 a艾
b: -布卜 a巴芭 e贝 ie别 y贝 i比彼 o博波伯 u布 ai拜 ao包鲍 an班 en边本 in宾本 on邦
p: -普 a帕 e佩 ie佩 y佩 i皮 o波 u普 ai派 ao保 an潘 en片彭 in平 on蓬
d: -德得 a达大 ia佳 e代黛 ie杰捷 y德迪 i季迪基 o多 io焦 u杜 iu久 ai代黛 ao道 an丹 ian佳 en坚登 in金丁 on东敦 ui杜
t: -特 a塔 ia佳 e泰 ie捷 y特 i季蒂提基 o托 io乔 u图 iu秋 ai泰 ao陶 an坦 ian坚 en坚滕 in京廷 on通 ui图
g: -格 a加 e盖 ie格盖 y格 i吉 o戈 u古 iu久 ai盖 ao高 an甘 en根 in金 on贡
k: -克 a卡 e凯 ie克 y克 i基 o科 u库 iu丘 ai凯 ao考 an坎康 en肯 in金 on孔 | a喀 o柯
v: -夫弗 a瓦娃 e韦卫 ie韦 y维 i维 o沃 u武 ai瓦 an万 en文 in文 on翁
f: -夫弗 a法 e费 ie费 y菲 i菲 o福 u富福 ai法 an凡 en芬 in芬 on丰
z: -兹 a扎 e泽 ie泽 y济 i济齐 o佐 u祖 iu久 ai宰 ao藻 an赞 en津 in津 on宗
s: -斯 a萨莎 ia夏霞 e塞 ie谢 y瑟 i西锡 o索 io肖 u苏 iu休秀修 ai赛 ao绍 an桑 ian相 en先森 in辛 on松
zh: -日 a扎 e热 ie热 y日 i日 o若 io若 u茹 ai扎 an然 en任 in任 on容
sh: -什史 a沙莎 e舍 ie舍谢 y希 i希 o绍 io绍 u舒 ai沙 ao绍 an尚山 en申 in申 on雄
j: -季奇治 a贾 e杰 ie杰 i吉 o焦 io焦 u朱 iu久 ai贾 an詹占 en真珍 in金 on琼 | o乔 a佳
ch: -奇 a恰查 e切 ie切 y奇 i奇 o乔 io乔 u丘楚 iu丘 ai柴 an昌 en琴 in钦 on琼
shch: -希 a夏 e谢 ie谢 i希 o晓 io晓 u休 iu休 an相 en先
ts: -茨 a察 e采 ie采 y齐 i齐 o措 u楚 ai采 ao曹 an灿 en岑 on宗
h: -赫 a哈 e海黑 ie赫 y赫 i希 o霍 u胡 iu休 ai海 ao豪 an汉罕翰 en亨 in欣 on洪 ui惠 ou侯 | o侯 u侯
m: -姆 a马玛 e梅 ie梅 y梅 i米密 o莫默 io苗 u穆 iu缪 ai迈 ao毛 an曼 en缅门 in明敏 on蒙 | e默
n: -恩 a纳娜 e内 ie涅 y内 i尼妮 o诺 u努 iu纽 ai奈 ao瑙 an南楠 en年 in宁 on农
l: -尔勒 a拉 e莱雷蕾 ie列烈 y雷 i利里莉丽历理 o洛罗萝 io廖 u卢鲁 iu柳留 ai莱赖 ao劳 an兰 ian良廉 en连伦 in林琳 on隆龙
w: a瓦娃 e韦威 i威维 o沃 u伍武 an万旺 en温文 ai怀 ui惠
y: a亚娅 e耶叶 i伊 o约尤 u尤 an扬 en延 in因 on永
`;

const TABLE = new Map<string, string[]>();
for (const line of GRID.trim().split('\n')) {
  const colon = line.indexOf(':');
  const rowKey = line.slice(0, colon).trim();
  const cons = ROW[rowKey];
  if (!cons) throw new Error(`han.ts: unknown row "${rowKey}"`);
  for (const cell of line.slice(colon + 1).replace('|', ' ').trim().split(/\s+/)) {
    const m = /^([a-z-]*)(\p{Script=Han}+)$/u.exec(cell);
    if (!m) throw new Error(`han.ts: bad cell "${cell}" in row "${rowKey}"`);
    const vowels = COLUMN[m[1] || '-'];
    if (!vowels) throw new Error(`han.ts: unknown column "${m[1]}"`);
    for (const ch of m[2]) {
      const readings = TABLE.get(ch) ?? [];
      for (const c of cons) for (const v of vowels) if (!readings.includes(c + v)) readings.push(c + v);
      TABLE.set(ch, readings);
    }
  }
}
// Characters written only for a consonant with no vowel (德 d, 斯 s, 尔 r): their vowel is optional in
// every cell they stand in (德 also stands in the ы column: 'd' or 'di').
for (const ch of '布卜普德特格克夫弗兹斯日什赫姆恩尔勒茨季奇希') {
  const r = TABLE.get(ch)!;
  TABLE.set(ch, [...new Set([...r.filter((x) => !/[aeiou]/.test(x)), ...r])]);
}

/** The transcription characters (for tests and the reading's trigger). */
export function isTranscriptionCharacter(ch: string): boolean {
  return TABLE.has(ch);
}

/** A word of transcription characters as segments (one per character), or undefined. */
export function hanPattern(word: string): Segment[] | undefined {
  const out: Segment[] = [];
  for (const ch of word) {
    const r = TABLE.get(ch);
    if (!r) return undefined;
    out.push(r);
  }
  return out.length ? out : undefined;
}

/** Chinese patronymic endings (-维奇 -vich, -耶维奇 -yevich, -夫娜 -vna). */
export const HAN_PATRONYMIC = /(维奇|维契|夫娜)$/;
