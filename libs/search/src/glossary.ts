import { analyze, stem } from './analyzer';

/**
 * A small English → Chinese glossary of words that name what tools do. Many MCP servers describe
 * their tools only in Chinese (news and trend aggregators, rail booking, recipes, almanacs), while
 * requests to an agent are often in English; with no shared word, lexical search cannot connect
 * them. Each English query word listed here also searches for its Chinese renderings, at a lower
 * weight than the words the request really contains. General vocabulary of tool domains, not a
 * translation service: a word that is not listed simply gets no help.
 */
const ENGLISH_TO_CHINESE: Readonly<Record<string, readonly string[]>> = {
  news: ['新闻', '资讯', '快讯'],
  headline: ['头条', '要闻'],
  trending: ['热榜', '热搜', '热门', '趋势'],
  trend: ['热榜', '热搜', '趋势'],
  hot: ['热门', '热榜', '热搜'],
  popular: ['热门', '流行'],
  rank: ['排行', '榜单', '排名'],
  ranking: ['排行', '榜单', '排名'],
  leaderboard: ['排行', '榜单'],
  game: ['游戏'],
  gaming: ['游戏', '电竞'],
  video: ['视频'],
  music: ['音乐'],
  song: ['歌曲', '音乐'],
  movie: ['电影'],
  film: ['电影'],
  book: ['图书', '书籍'],
  reading: ['阅读', '读书'],
  tech: ['科技'],
  technology: ['科技', '技术'],
  science: ['科学'],
  business: ['商业'],
  finance: ['财经', '金融'],
  financial: ['财经', '金融'],
  economy: ['经济', '财经'],
  economic: ['经济', '财经'],
  startup: ['创业'],
  investment: ['投资', '投融资'],
  stock: ['股票', '股市'],
  market: ['市场', '行情'],
  price: ['价格', '报价'],
  cheap: ['便宜', '好价', '优惠'],
  deal: ['优惠', '好价'],
  discount: ['折扣', '优惠'],
  shopping: ['购物'],
  buy: ['购买', '购物'],
  product: ['产品', '商品'],
  goods: ['商品', '好物'],
  weather: ['天气'],
  forecast: ['预报'],
  search: ['搜索', '查询'],
  query: ['查询'],
  map: ['地图'],
  location: ['位置', '地点'],
  address: ['地址'],
  route: ['路线'],
  train: ['火车', '列车', '高铁', '车次'],
  rail: ['铁路', '火车', '高铁'],
  railway: ['铁路'],
  ticket: ['车票', '余票', '票'],
  station: ['车站', '站点'],
  city: ['城市'],
  flight: ['航班'],
  hotel: ['酒店'],
  travel: ['旅行', '旅游'],
  trip: ['旅行', '行程'],
  date: ['日期'],
  today: ['今天', '今日'],
  time: ['时间'],
  calendar: ['日历', '农历'],
  lunar: ['农历'],
  birth: ['出生'],
  born: ['出生'],
  horoscope: ['星座', '运势'],
  fortune: ['运势', '命理'],
  recipe: ['菜谱', '食谱', '做法'],
  cook: ['做菜', '烹饪', '菜谱'],
  cooking: ['烹饪', '菜谱'],
  dish: ['菜品', '菜'],
  meal: ['餐', '菜单'],
  food: ['美食', '食物'],
  ingredient: ['食材', '原料'],
  eat: ['吃'],
  card: ['卡片', '卡牌'],
  image: ['图片', '图像'],
  picture: ['图片'],
  photo: ['照片', '图片'],
  translate: ['翻译'],
  translation: ['翻译'],
  article: ['文章'],
  paper: ['论文'],
  developer: ['开发者', '开发'],
  programming: ['编程'],
  code: ['代码'],
  social: ['社交'],
  community: ['社区'],
  topic: ['话题', '主题'],
  entertainment: ['娱乐'],
  sport: ['体育'],
  sports: ['体育'],
  health: ['健康'],
  education: ['教育'],
  politics: ['政治', '时政'],
  international: ['国际'],
  global: ['全球'],
  world: ['全球', '世界'],
  china: ['中国'],
  chinese: ['中文', '中国'],
  apple: ['苹果'],
  phone: ['手机'],
  car: ['汽车'],
  job: ['招聘', '职位'],
  company: ['公司', '企业'],
  user: ['用户'],
  comment: ['评论'],
  review: ['评测', '评论'],
  rating: ['评分'],
  summary: ['摘要', '总结'],
  document: ['文档'],
  file: ['文件'],
  email: ['邮件'],
  message: ['消息'],
  weibo: ['微博'],
  bilibili: ['哔哩哔哩', 'B站'],
};

let byStem: Map<string, readonly string[]> | undefined;

/**
 * The index terms (CJK bigrams) of the Chinese renderings of an analysed English query term (a
 * Snowball stem); none when the word is not listed.
 */
export function glossaryTerms(term: string): readonly string[] {
  if (byStem === undefined) {
    const table = new Map<string, readonly string[]>();
    for (const [word, renderings] of Object.entries(ENGLISH_TO_CHINESE)) {
      const key = stem(word);
      const terms = renderings.flatMap((rendering) => analyze(rendering));
      table.set(key, [...new Set([...(table.get(key) ?? []), ...terms])]);
    }
    byStem = table;
  }
  return byStem.get(term) ?? [];
}
