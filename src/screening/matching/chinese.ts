/**
 * Chinese names in pinyin. A Chinese given name is one or two syllables, each a character chosen for
 * its meaning: one syllable more, less or different is another name (Lin Bin is not Lin Ping, Guiying
 * is not Guoying), while two characters read alike (斌/彬 bin) are the same romanised name. So a word
 * read as pinyin is compared by its syllables, never by spelling nearness (compare.ts).
 */

/** Every toneless Mandarin syllable (the readings of the CJK Unified Ideographs block, any-ascii's table). */
const SYLLABLES = new Set(
  (
    'a ai an ang ao ba bai ban bang bao bei ben beng bi bian biao bie bin bing bo bu ca cai can cang cao ce cen ceng cha chai chan ' +
    'chang chao che chen cheng chi chong chou chu chua chuai chuan chuang chui chun chuo ci cong cou cu cuan cui cun cuo da dai dan ' +
    'dang dao de den deng di dia dian diao die ding diu dong dou du duan dui dun duo e ei en eng er fa fan fang fei fen feng fiao fo ' +
    'fou fu ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang gui gun guo ha hai han hang hao he hei hen heng hong ' +
    'hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao jie jin jing jiong jiu ju juan jue jun ka kai kan kang kao ke kei ' +
    'ken keng kong kou ku kua kuai kuan kuang kui kun kuo la lai lan lang lao le lei leng li lia lian liang liao lie lin ling liu lo ' +
    'long lou lu luan lue lun luo lv ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo mou mu na nai nan nang nao ne ' +
    'nei nen neng ni nian niang niao nie nin ning niu nong nou nu nuan nue nuo nv o ou pa pai pan pang pao pei pen peng pi pian piao ' +
    'pie pin ping po pou pu qi qia qian qiang qiao qie qin qing qiong qiu qu quan que qun ran rang rao re ren reng ri rong rou ru rua ' +
    'ruan rui run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen sheng shi shou shu shua shuai shuan shuang ' +
    'shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te teng ti tian tiao tie ting tong tou tu tuan tui tun tuo wa ' +
    'wai wan wang wei wen weng wo wu xi xia xian xiang xiao xie xin xing xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo ' +
    'yong you yu yuan yue yun za zai zan zang zao ze zei zen zeng zha zhai zhan zhang zhao zhe zhen zheng zhi zhong zhou zhu zhua zhuai ' +
    'zhuan zhuang zhui zhun zhuo zi zong zou zu zuan zui zun zuo'
  ).split(' '),
);

/** Common Chinese surnames in pinyin (single and the compound ones). */
export const CHINESE_SURNAMES: ReadonlySet<string> = new Set(
  (
    'wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he gao lin luo zheng liang xie song tang han feng deng cao ' +
    'peng zeng xiao tian dong yuan pan yu jiang cai jia ding wei xue ye yan du dai xia zhong fu shen lu yao jin cui ren tan qian fan ' +
    'shi qin gu hou shao meng long wan duan lei yin yi chang kong kang hao bai mao qiu niu ou tao ni mo geng ji bao zou xiong qi ' +
    'ouyang shangguan situ zhuge sima xiahou dongfang huangfu'
  ).split(' '),
);

const parsed = new Map<string, boolean>();

/** Whether a lowercase word is one or more pinyin syllables run together ("xiuying", "jinping"). */
export function isPinyin(word: string): boolean {
  let known = parsed.get(word);
  if (known !== undefined) return known;
  known = word.length <= 18 && /^[a-z]+$/.test(word) && segments(word, 0);
  if (parsed.size > 100_000) parsed.clear();
  parsed.set(word, known);
  return known;
}

function segments(word: string, from: number): boolean {
  if (from === word.length) return true;
  for (let len = Math.min(6, word.length - from); len >= 1; len--) {
    if (SYLLABLES.has(word.slice(from, from + len)) && segments(word, from + len)) return true;
  }
  return false;
}
