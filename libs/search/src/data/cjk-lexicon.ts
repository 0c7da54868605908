/**
 * Japanese and Chinese renderings of the English words tool catalogs use most (`cross-lingual.ts`
 * reads it). One line per English word: the word, its Japanese renderings, its Chinese (simplified)
 * renderings, tab-separated; renderings separated by spaces, each at least two characters, matched
 * as substrings of a request (so verb stems such as 送っ are listed beside 送る).
 *
 * How it was made: a script (`scripts/catalog-vocabulary.ts`) listed the public catalogs' words by document frequency over their
 * tool names and descriptions (`../shared/data/catalog-*.jsonl`): the first 2,600, then those of
 * ranks 2,601 – 6,000 used by at least two tools. Helpers that had not seen any query of the
 * evaluation sets gave the ones a person could ask for (actions, objects, qualities; not schema
 * words such as "args", "json" or "endpoint", which are typed in Latin letters anyway) their usual
 * renderings. No line comes from a query: four words the prompt of the third batch had named as
 * examples after a failing request (radio, lottery, pie, rhyme) were taken out again. Words may be
 * added the same way; each needs a measurement on the frozen parts (BENCHMARKS.md).
 */
export const CJK_LEXICON = `
name	名前 名称	名称 名字
description	説明 概要	描述 说明
create	作成 作る 作っ 作り 新規作成	创建 新建 建立
search	検索 探す 探し 調べ	搜索 查找 检索 搜一下
user	ユーザー ユーザ 利用者	用户
retrieve	取得 取り出 取ってき	获取 检索 读取
update	更新 アップデート	更新 修改
file	ファイル	文件 档案
delete	削除 消去 消し 消す	删除 移除 删掉
request	リクエスト 依頼 要求 申請	请求 申请
content	コンテンツ 内容 本文	内容
results	結果	结果
query	クエリ 問い合わせ 照会	查询
project	プロジェクト 案件	项目 工程
page	ページ	页面 网页
status	ステータス 状態 状況	状态 状况
existing	既存	现有 已有
filter	フィルター フィルタ 絞り込	筛选 过滤
format	フォーマット 形式 書式	格式
task	タスク 作業	任务 待办
time	時間 時刻	时间
code	コード	代码 编码
issue	イシュー 課題	问题 议题
text	テキスト 文章 文字列	文本 文字
multiple	複数	多个 多条
containing	含む 含ま	包含 含有
generate	生成 作成	生成 产生
key	キー	密钥 键值
example	例文 具体例 サンプル	示例 例子
fetch	取得 取ってき	获取 抓取 拉取
check	確認 チェック 調べ	检查 查看 确认
message	メッセージ	消息 信息 留言
add	追加 加え 加える 足す	添加 增加 加入
date	日付 日時	日期
document	ドキュメント 文書 資料 書類	文档 文件 资料
path	パス 経路	路径
single	単一 一つ	单个 单一
supported	対応 サポート	支持
database	データベース DB	数据库
access	アクセス	访问 权限
image	画像 イメージ 写真	图片 图像 照片
token	トークン	令牌 代币
error	エラー	错误 报错
repository	リポジトリ レポジトリ	仓库 代码库
item	アイテム 項目 商品	条目 物品 项目
start	開始 始め スタート 始める	开始 启动
company	会社 企業	公司 企业
operations	操作 運用	操作 运营
note	ノート メモ	笔记 备注 便签
read	読む 読み 読ん 読込	读取 阅读
address	アドレス 住所	地址
price	価格 値段 料金	价格 报价
context	コンテキスト 文脈	上下文 语境
dictionary	辞書	字典 词典
find	見つけ 探す 探し 検索	查找 找到 寻找
post	投稿 ポスト	发布 帖子 发帖
account	アカウント 口座	账户 账号 帐户
fields	フィールド 項目	字段
comment	コメント	评论 留言 注释
management	管理	管理
configuration	設定 構成 コンフィグ	配置 设置
link	リンク	链接
hub	ハブ	中心 枢纽
call	呼び出 電話 コール	调用 呼叫 打电话
options	オプション 選択肢	选项
identifier	識別子	标识符
execute	実行	执行 运行
performance	パフォーマンス 性能 成績	性能 表现 绩效
browser	ブラウザ ブラウザー	浏览器
title	タイトル 題名 件名	标题
run	実行 走らせ 動かす 動かし	运行 执行
structured	構造化	结构化
pagination	ページネーション ページ送り	分页
response	レスポンス 応答	响应 回应
changes	変更 変化	变更 更改 改动
market	市場 マーケット 相場	市场 行情
match	試合 一致 マッチ	比赛 匹配
active	アクティブ 稼働中 有効	活跃 激活
lists	リスト 一覧	列表 清单
first	最初 初回 初めて	第一 首次 首个
symbol	シンボル 銘柄 記号	符号 代码 标识
analyze	分析 解析	分析 解析
stock	株価 株式 銘柄 在庫	股票 股价 库存
complete	完了 完成	完成 完整
tag	タグ	标签
best	最適 ベスト 最高 一番	最佳 最好 最优
index	インデックス 指数 索引	索引 指数
video	動画 ビデオ	视频 影片
table	テーブル 一覧表	表格 数据表
full	全文 全部 完全	完整 全部
calculate	計算 算出	计算 算出
next	次の 次回	下一个 下次
location	位置 場所 所在地	位置 地点 定位
web	ウェブ ネット	网页 网络 网站
properties	プロパティ 属性 物件	属性 房产
record	レコード 記録	记录
metadata	メタデータ	元数据
email	メール Eメール 電子メール	邮件 邮箱 电子邮件
source	ソース 出典 情報源	来源 源码 出处
group	グループ	群组 分组 小组
trading	トレード 取引 売買	交易 买卖
order	注文 発注 オーダー 順序	订单 下单 排序
days	日間 日数	天数 天内
keyword	キーワード	关键词 关键字
event	イベント 出来事	事件 活动
collection	コレクション	集合 合集 收藏
transaction	トランザクション 取引	交易 事务
analysis	分析	分析
like	いいね	点赞 喜欢
send	送信 送る 送っ 送り	发送 发出 寄送
category	カテゴリ カテゴリー 分類	类别 分类 类目
remove	削除 取り除 外す 外し	删除 移除 去掉
track	追跡 トラック 楽曲	跟踪 追踪 歌曲 曲目
input	入力 インプット	输入
latest	最新	最新
output	出力 アウトプット	输出
control	制御 コントロール 操作	控制
view	表示 閲覧 見る 見せ	查看 浏览 视图
recent	最近 直近	最近 近期
types	種類 タイプ	类型 种类
maximum	最大 最高	最大 最高
show	表示 見せ 見たい	显示 展示
product	製品 商品 プロダクト	产品 商品
batch	一括 バッチ まとめて	批量 批处理
domain	ドメイン	域名
end	終了 終わり	结束 结尾
count	件数 カウント 数え	数量 计数 统计
block	ブロック	区块 屏蔽 阻止
app	アプリ	应用 软件
server	サーバー サーバ	服务器
process	処理 プロセス	处理 进程 流程
custom	カスタム 独自	自定义 定制
state	状態 ステート	状态
test	テスト 試験	测试
docs	ドキュメント 資料	文档
organization	組織 団体	组织 机构
steps	手順 ステップ	步骤
report	レポート 報告 報告書	报告 报表
label	ラベル	标签
function	関数 機能	函数 功能
language	言語	语言
open	開く 開い 開け オープン	打开 开启
directory	ディレクトリ フォルダ	目录
profile	プロフィール プロファイル	个人资料 简介 档案
summary	要約 概要 サマリー まとめ	摘要 总结 概要 汇总
range	範囲 期間	范围 区间
comprehensive	包括的 網羅	全面 综合
connection	接続 コネクション	连接
work	作業 仕事	工作
team	チーム	团队
logs	ログ	日志
point	ポイント 地点	积分 地点
application	アプリケーション アプリ 申請 応募	应用 程序 申请
model	モデル	模型 型号
level	レベル 水準	级别 等级 水平
deployment	デプロイ 展開	部署
version	バージョン	版本
direct	直接	直接
associated	関連	关联
total	合計 総額 総数	总计 合计 总数
history	履歴 歴史	历史 记录
metrics	メトリクス 指標	指标 度量
scraping	スクレイピング 収集	抓取 爬取 爬虫
pull	プル 取り込	拉取
last	最後 前回 直近	最后 上次
convert	変換 換算	转换 换算
stats	統計	统计
statistics	統計	统计
markdown	マークダウン	
extract	抽出 取り出	提取 抽取
workspace	ワークスペース	工作区 工作空间
help	ヘルプ 助け 手伝	帮助 帮忙
top	トップ 上位	热门 排行
system	システム	系统
success	成功	成功
select	選択 選ぶ 選び 選ん	选择 挑选
fast	高速 速い 素早	快速 迅速
rate	レート 為替レート 料金	汇率 费率 比率
different	違い 異なる	不同 区别
node	ノード	节点
board	ボード 掲示板	看板 面板
target	ターゲット 対象 目標	目标 对象
volume	出来高 音量 ボリューム	成交量 音量 容量
folder	フォルダ フォルダー	文件夹 目录
cache	キャッシュ	缓存
store	ストア 保存 店舗	存储 商店 保存
download	ダウンロード	下载
unique	一意 ユニーク	唯一
security	セキュリティ 安全	安全 安全性
element	要素 エレメント	元素 组件
memory	メモリ 記憶	内存 记忆
base	ベース 基本	基础
news	ニュース	新闻 资讯
environment	環境	环境
trending	トレンド 話題 急上昇	热门 趋势 热搜
contact	連絡先 コンタクト 連絡	联系人 联系
session	セッション	会话
important	重要	重要
channel	チャンネル チャネル	频道 渠道
historical	過去 履歴 歴史的	历史
client	クライアント 顧客	客户 客户端
resource	リソース 資源	资源
variable	変数	变量
map	地図 マップ	地图
authentication	認証	认证 验证 身份验证
case	ケース 事例 案件	案例 用例
pair	ペア 通貨ペア	交易对 配对
understand	理解	理解 弄懂
crm	顧客管理	客户管理 客户关系
action	アクション 操作	操作 动作
word	単語 ワード 言葉	单词 词语
review	レビュー 評価 口コミ	评论 评价 审查 审核
google	グーグル	谷歌
weather	天気 気象 天候	天气 气象
public	公開 パブリック	公开 公共
prompt	プロンプト	提示词 提示
component	コンポーネント 部品	组件
month	月間 今月 先月 ヶ月	月份 本月 每月 个月
usage	使用量 利用状況 使い方	用量 使用情况 用法
position	ポジション 位置	仓位 位置 职位
local	ローカル 地元	本地 当地
save	保存 セーブ	保存 存储
size	サイズ 大きさ	大小 尺寸
country	国名 国別 各国	国家
network	ネットワーク	网络
prerequisites	前提条件	前提条件
city	都市 市町村	城市
balance	残高 バランス	余额
defaults	デフォルト 既定	默认
quickly	素早く 迅速	快速 迅速
term	用語 期間	术语 期限 条款
space	スペース 空間	空间
initial	初期 最初	初始
high	高値 高い 最高	最高 高价
package	パッケージ	软件包 依赖包 安装包
shared	共有	共享 分享
lookup	検索 照会 調べ	查询 查找
command	コマンド 命令	命令 指令
assigned	割り当て 担当 アサイン	分配 指派 负责
branch	ブランチ 支店	分支
recommendations	おすすめ お勧め オススメ 推薦 推奨	推荐 建议
place	場所 スポット 施設	地点 地方 场所
problems	問題	问题
display	表示	显示 展示
timestamp	タイムスタンプ	时间戳
verify	検証 確認	验证 核实 核对
real	実際 本物 リアル	真实 实际
common	一般的 よくある 共通	常见 通用
reference	参照 参考 リファレンス	参考 引用
features	機能 特徴	功能 特性 特点
exchange	取引所 両替 交換	交易所 兑换 交换
agent	エージェント 代理	代理 智能体
member	メンバー 会員	成员 会员
plan	プラン 計画	计划 方案 套餐
automatically	自動	自动
mode	モード	模式
chat	チャット 会話	聊天 对话
entry	エントリー 項目 記入	条目 记录
workflow	ワークフロー	工作流 流程
flow	フロー 流れ	流程
daily	毎日 日次 日別 デイリー	每日 每天 日线
admin	管理者 アドミン	管理员
build	ビルド 構築	构建 搭建 编译
sort	並べ替え 並び替え ソート	排序
year	年間 今年 去年 年度	年份 今年 去年 年度
specify	指定	指定
articles	記事	文章
coordinates	座標 緯度経度	坐标 经纬度
game	ゲーム	游戏
graph	グラフ	图表 图谱
config	設定	配置
close	閉じる 閉じ クローズ 終値	关闭 收盘
person	人物 個人	人物 个人
random	ランダム 無作為	随机
knowledge	知識 ナレッジ	知识 知识库
move	移動 動かす 移し	移动 迁移
wallet	ウォレット 財布	钱包
advanced	高度 詳細設定	高级
click	クリック 押す 押し	点击 单击
questions	質問 問題	问题 提问
relevant	関連	相关
insights	インサイト 洞察	洞察 见解
chain	チェーン	区块链 链上 公链
financial	財務 金融 決算	财务 金融
failed	失敗	失败
attributes	属性	属性
creation	作成	创建 创作
card	カード	卡片 银行卡
navigate	ナビ 遷移	导航 跳转
drive	ドライブ	云盘 网盘 驱动器
progress	進捗 進行状況	进度 进展
entity	エンティティ 実体	实体
latitude	緯度	纬度
longitude	経度	经度
warning	警告 注意報	警告 预警
section	セクション	章节 部分
criteria	条件 基準	条件 标准
clear	クリア 消去	清除 清空
forecast	予報 予測 予想	预报 预测
week	週間 今週 来週 先週	本周 一周 每周 星期
enable	有効化 有効に オンに	启用 开启
job	ジョブ 求人 仕事	职位 招聘 工作
interval	間隔 インターバル	间隔
minute	分間 分足	分钟
bulk	一括 大量	批量
write	書く 書き 書い 書込	写入 编写 撰写
modify	変更 修正	修改 更改
method	メソッド 方法	方法
rules	ルール 規則	规则
ask	聞く 聞い 質問 尋ね	询问 提问
score	スコア 点数 得点	分数 评分 得分 比分
script	スクリプト 台本	脚本
average	平均	平均
monitoring	監視 モニタリング	监控 监测
contract	契約 コントラクト 契約書	合约 合同
patterns	パターン	模式 规律
permission	権限 許可	权限 许可
confirmation	確認	确认
previous	前回 以前	上一个 之前 以前
trigger	トリガー	触发 触发器
mark	マーク 印を	标记
standard	標準 スタンダード	标准
numbers	数字 番号	数字 号码
business	ビジネス 事業	商业 业务
reliable	信頼 信頼性	可靠
archive	アーカイブ 保管	归档 存档
author	著者 作者	作者
conversation	会話	对话 会话
region	地域 リージョン	地区 区域
series	シリーズ 系列	系列
amount	金額 数量	金额 数额
currency	通貨 為替	货币 币种
chart	チャート グラフ 図表	图表 走势图 K线
website	ウェブサイト サイト ホームページ	网站 网页 官网
quote	見積 引用 クォート	报价 行情 引用
live	ライブ 生放送 生配信	直播 实时
apply	適用 応募 申請	应用 申请 适用
player	選手 プレイヤー プレーヤー	球员 玩家 播放器 选手
period	期間	期间 周期 时期
developer	開発者 デベロッパー	开发者
site	サイト	网站 站点
form	フォーム	表单
research	リサーチ 調査 研究	研究 调研 调查
edit	編集	编辑
debug	デバッグ	调试
username	ユーザー名 ユーザ名	用户名
complex	複雑	复杂
calendar	カレンダー 予定表	日历 日程
hours	時間 営業時間	小时 营业时间
coin	コイン 暗号資産	代币 币种 加密货币
compare	比較 比べ	比较 对比
basic	基本 基礎	基本 基础
library	ライブラリ 図書館	函数库 依赖库 图书馆
obtain	入手 取得	获得 获取
presentation	プレゼン プレゼンテーション スライド	演示 演示文稿 幻灯片 PPT
ohlcv	ローソク足 四本値	K线 行情数据
same	同じ 同一	相同 同一
paper	論文 ペーパー	论文
private	プライベート 非公開	私有 私人 私密
linkedin	リンクトイン	领英
storage	ストレージ	存储
essential	必須 不可欠	必要 基本
route	ルート 経路 道順	路线 路径
binance	バイナンス	币安
attachment	添付 添付ファイル	附件
parent	親フォルダ 親タスク 親ページ	父级 上级
proxy	プロキシ	代理
template	テンプレート テンプレ ひな形	模板
describe	説明	描述 说明
lead	リード 見込み客	潜在客户 线索
device	デバイス 端末 機器	设备
large	大きい 大量 大規模	大型 大量
overview	概要 全体像	概述 概览 总览
unit	単位 ユニット	单位
ranking	ランキング 順位	排名 排行 排行榜
thread	スレッド	帖子 线程 话题
evaluate	評価	评估 评价
sell	売る 売り 売却 売っ	卖出 出售
hash	ハッシュ	哈希
anime	アニメ	动漫 动画 番剧
assets	資産 アセット 素材	资产 素材
definitions	定義	定义
statement	明細 声明 財務諸表	报表 声明 对账单
estimate	見積 推定 見積もり	估算 预估 估计
upload	アップロード	上传
campaign	キャンペーン	营销活动 推广活动
purpose	目的 用途	目的 用途
commit	コミット	提交
global	グローバル 世界 全世界	全球 全局
topic	トピック 話題 テーマ	主题 话题
schedule	スケジュール 予定 予約	日程 安排 预约 计划
course	コース 講座 授業	课程
technical	テクニカル 技術	技术
know	知る 知りたい 知っ	知道 了解
power	電力 パワー 電源	电力 电源 功率
character	キャラクター 文字	角色 字符 人物
ticker	ティッカー 銘柄コード	股票代码
stream	ストリーム 配信	直播 推流 流式
notifications	通知	通知 提醒
optimization	最適化	优化
empty	空っぽ 空欄 空の	空白 清空
release	リリース 発売	发布 发行
discover	発見 見つけ	发现 探索
subscription	サブスク サブスクリプション 購読 定期購入	订阅
alternatives	代替 代わり	替代 替代品
play	再生 プレイ 遊ぶ	播放 玩游戏
media	メディア	媒体 多媒体
equity	株式	股权 股票
original	オリジナル 原文 元の	原始 原文 原创
combined	結合 合算	合并 组合
style	スタイル 様式	样式 风格
conditions	条件 状態	条件 状况
audio	音声 オーディオ 音源	音频 语音 音源
book	書籍 ブック 予約	书籍 图书 预订
cost	コスト 費用	成本 费用
alerts	アラート 警報	警报 提醒 预警
low	安値 低い 最安	最低 低价
suggestions	提案 候補 おすすめ	建议 推荐
free	無料 フリー	免费
dataset	データセット	数据集
health	健康 ヘルス 稼働状況	健康 健康状况
phone	電話 電話番号 スマホ	电话 手机
cryptocurrency	暗号資産 仮想通貨 暗号通貨	加密货币 虚拟货币 数字货币
exact	正確 完全一致	精确 准确
repo	リポジトリ レポ	仓库
natural	自然	自然
analytics	アナリティクス 分析	分析 数据分析
strategy	戦略 ストラテジー	策略 战略
back	戻る 戻し 戻す	返回 回退
interactive	インタラクティブ 対話	交互
simple	シンプル 簡単	简单
scan	スキャン	扫描
correct	修正 正しい 訂正	纠正 修正 正确
blockchain	ブロックチェーン	区块链
individual	個別 個人	个人 单独
prediction	予測 予想	预测
unavailable	利用不可 使えない	不可用 无法使用
similar	類似 似た 似て	相似 类似
stop	停止 止め ストップ	停止 终止
translate	翻訳 訳し 訳す 訳して	翻译 译成
transfer	送金 転送 振込 移管	转账 转移 传输
cloud	クラウド	云端 云服务
restart	再起動 リスタート	重启 重新启动
future	将来 未来 先物	未来 期货
capabilities	機能 能力	能力 功能
parse	解析 パース	解析
reasoning	推論	推理
detection	検出 検知	检测 识别
screenshot	スクリーンショット スクショ 画面キャプチャ	截图 截屏
integration	連携 統合 インテグレーション	集成 整合 对接
absolute	絶対	绝对
movie	映画	电影
instructions	指示 手順 説明書	说明 指令
multi	複数 マルチ	多个
eth	イーサリアム イーサ	以太坊
body	本文 ボディ	正文
explore	探索 調べ	探索 浏览
auto	自動	自动
meetings	会議 ミーティング 打ち合わせ	会议
priority	優先度 優先順位	优先级
realtime	リアルタイム	实时
dashboard	ダッシュボード	仪表盘 仪表板 看板
login	ログイン	登录 登陆
comma	カンマ コンマ	逗号
home	ホーム 自宅	首页 主页
buy	買う 買い 購入 買っ	购买 买入
effects	効果 エフェクト	效果 特效
feed	フィード	动态 订阅源 信息流
scope	スコープ 範囲	范围 作用域
funding	資金調達 ファンディング	融资 资金费率
transcript	文字起こし 書き起こし トランスクリプト	字幕 转录 文字稿
bitcoin	ビットコイン	比特币
remote	リモート 遠隔	远程
thinking	思考 考え	思考 思维
plugin	プラグイン	插件
solution	ソリューション 解決策	解决方案 方案
wait	待つ 待っ 待ち	等待
ticket	チケット 問い合わせ	工单 门票 车票
communication	コミュニケーション 連絡 通信	沟通 通信 交流
port	ポート 港湾	端口 港口
implementation	実装	实现 实施
publish	公開 投稿 発行 パブリッシュ	发布 发表
design	デザイン 設計	设计
main	メイン 主要	主要
assistant	アシスタント 助手	助手 助理
platform	プラットフォーム	平台
room	ルーム 部屋 会議室	房间 会议室
normal	通常 普通	正常 普通
receive	受信 受け取	接收 收到
wiki	ウィキ	百科 维基
external	外部	外部
spotify	スポティファイ	
playlist	プレイリスト 再生リスト	歌单 播放列表
reply	返信 返事 リプライ	回复
visual	ビジュアル 視覚	可视化 视觉
duration	所要時間 長さ 期間	时长 持续时间
color	カラー 色合い 配色	颜色 色彩
short	ショート 短い 短縮	简短 缩短 短视频
english	英語	英语 英文
efficiency	効率	效率
relationship	関係	关系
compatible	互換 対応	兼容
encoded	エンコード 符号化	编码
host	ホスト	主机
llm	大規模言語モデル	大模型 大语言模型
expression	表現 数式 正規表現	表达式 表情
crypto	暗号資産 仮想通貨 クリプト	加密货币 币圈
tweet	ツイート つぶやき	推文 推特
raw	生データ 未加工	原始
intraday	日中 ザラ場	日内 分时
pipeline	パイプライン	管道 流水线
resolve	解決	解决
quality	品質 クオリティ	质量 品质
computes	計算	计算
investment	投資	投资
hold	保有 保留 ホールド	持有 持仓
temporary	一時 一時的	临时
audit	監査	审计
credentials	認証情報 資格情報	凭证 凭据
automation	自動化 オートメーション	自动化
decisions	決定 意思決定 判断	决策 决定
potential	潜在 可能性	潜在 潜力
summarize	要約 まとめ まとめて	总结 概括 摘要 汇总
frame	フレーム	框架 画面
intelligence	インテリジェンス 知能	智能 情报
delayed	遅延	延迟
internal	内部 社内	内部
earnings	決算 収益	财报 收益 盈利
destination	目的地 行き先 宛先	目的地
area	エリア 地域 面積	区域 地区 面积
entire	全体 全て	整个 全部
simulation	シミュレーション	模拟 仿真
cancel	キャンセル 取り消 中止	取消 撤销
owner	オーナー 所有者	所有者 拥有者
mentions	メンション 言及	提及 提到
long	長い ロング 長期	长期 做多
root	ルート	根目录
disable	無効化 無効に オフに	禁用 停用
special	特別 スペシャル	特殊 特别
copy	コピー 複製	复制 拷贝
class	クラス 授業	班级 类别
reset	リセット 初期化	重置
pro	プロ	专业版
smart	スマート	智能
permanently	完全に 永久	永久 彻底
merge	マージ 統合 結合	合并
ideal	理想	理想
gov	政府 官公庁	政府
people	人々 人物	人员 人们
height	高さ 身長	高度 身高
weight	重さ 体重 重量	重量 体重 权重
today	今日 本日	今天 今日
determine	判定 決定	确定 判断
credit	クレジット 信用	信用 额度 积分
module	モジュール	模块
popular	人気	热门 流行 受欢迎
failure	失敗 障害	失败 故障
distance	距離	距离
measure	測定 計測 測る	测量
column	カラム 列名 コラム	列名 字段 专栏
actual	実際	实际
bank	銀行	银行
engagement	エンゲージメント	互动 参与度
syntax	構文 文法	语法
sales	売上 販売 セールス	销售 销量 销售额
down	ダウン 下落	宕机 下跌
assessment	評価 アセスメント 診断	评估 测评
offer	オファー 提供	优惠 报价
ratio	比率 レシオ	比率 比例
percentage	割合 パーセント 百分率	百分比 比例
layout	レイアウト	布局 排版
load	読み込 ロード 負荷	加载 负载
visible	表示 可視 見える	可见
forward	転送	转发
role	ロール 役割	角色
industry	業界 産業	行业 产业
past	過去	过去 历史
policy	ポリシー 方針 規約	政策 策略
protocol	プロトコル	协议
python	パイソン	
official	公式	官方
tab	タブ	标签页
rename	名前を変更 名前変更 リネーム 改名	重命名 改名
children	子供 子ども 子要素	子项 子节点 儿童
sign	署名 サイン	签名 签署
employee	従業員 社員	员工 雇员
filename	ファイル名	文件名
answer	回答 答え	回答 答案
voice	音声 ボイス	语音 声音
temperature	気温 温度	温度 气温
artist	アーティスト 歌手	艺术家 歌手
quarterly	四半期	季度 季报
stay	滞在 宿泊	住宿 逗留
export	エクスポート 書き出	导出
entitlement	権利	权益
payment	支払 決済 ペイメント	支付 付款
integer	整数	整数
invalid	無効 不正	无效
auth	認証	认证 授权
ethereum	イーサリアム	以太坊
discord	ディスコード	
password	パスワード	密码
now	現在 今すぐ	现在 当前
focus	フォーカス 集中	专注 重点
plain	プレーン	纯文本
registered	登録	注册 登记
stage	ステージ 段階	阶段
deal	取引 ディール 商談	交易 商机
datetime	日時	日期时间
fill	入力 記入 埋め	填写 填充
submission	提出	提交
canvas	キャンバス	画布
sheet	シート スプレッドシート	表格 工作表
usd	ドル 米ドル	美元
compliance	コンプライアンス 法令遵守	合规
practices	プラクティス	实践
pool	プール	资金池 矿池 池子
geocode	ジオコーディング ジオコード	地理编码
install	インストール 導入	安装
learning	学習 ラーニング	学习
amazon	アマゾン	亚马逊
engine	エンジン	引擎
readable	読みやすい 可読	可读
thought	思考 考え	想法 思考
social	ソーシャル SNS	社交 社交媒体
desired	希望	期望
risk	リスク	风险
row	行目 行データ	行数据
enterprise	エンタープライズ 企業向け	企业
tree	ツリー 木構造	树形 目录树
assignee	担当者	负责人 经办人
replace	置換 置き換え 差し替え	替换
interest	金利 利息 興味	利率 利息 兴趣
minimum	最小 最低	最小 最低
patch	パッチ	补丁
sample	サンプル 見本	样本 示例 样例
genre	ジャンル	类型 流派 题材
bucket	バケット	存储桶
vector	ベクトル	向量
spot	スポット 現物 観光地	现货 景点
missing	欠落 不足 欠損	缺失 缺少
semantic	セマンティック 意味的	语义
icon	アイコン	图标
segments	セグメント 区間	分段 细分
rendering	レンダリング 描画	渲染
press	プレス 報道	新闻稿
setup	セットアップ 設定	设置 配置
subtask	サブタスク	子任务
human	人間	人类 人工
adjust	調整	调整
geographic	地理	地理
station	ステーション 観測所 駅名	车站 站点 气象站
overall	全体 総合	总体 整体
exclude	除外 除く 除い	排除 不包括
distribution	分布 配布 流通	分布 分发
append	追記	追加 附加
approve	承認	批准 审批
length	長さ 文字数	长度
enter	入力	输入
goal	目標 ゴール	目标
since	以降	以来 自从
snapshot	スナップショット	快照
digital	デジタル	数字化
transformation	変換 変革	转换 转型
scale	スケール 規模	规模 扩容
feishu	飛書	飞书
logic	ロジック 論理	逻辑
deep	ディープ 詳しく 詳細に	深度 深入
liquidity	流動性	流动性
avoid	避け 回避	避免
terminal	ターミナル 端末	终端
below	以下	以下 低于
timeout	タイムアウト	超时
youtube	ユーチューブ	油管
machine	マシン 機械	机器
season	シーズン 季節	赛季 季节
desc	降順	降序
aggregate	集計	汇总 聚合
cluster	クラスタ クラスター	集群
movements	値動き 動き 変動	走势 变动 波动
sandbox	サンドボックス	沙盒 沙箱
done	完了 済み	完成 已完成
maintain	維持 保守 メンテナンス	维护 保持
final	最終	最终
travel	旅行	旅行 旅游 出行
sequence	シーケンス 順番	序列 顺序
migration	マイグレーション 移行	迁移
representation	表現	表示 表征
refresh	リフレッシュ 更新	刷新
set	設定 セット	设置 设定
related	関連	相关
service	サービス	服务
limit	制限 上限 リミット	限制 上限
valid	有効 正しい	有效
added	追加	新增 添加
preferred	好み 優先	偏好 首选
additional	追加	额外 附加
lab	研究室 ラボ 実験室	实验室
upcoming	今後の 近日 開催予定 今度の	即将 近期 即将到来
snippets	スニペット 断片	片段 代码片段
reverse	逆順 反転 逆に リバース	反转 倒序 逆向
guide	ガイド 案内 手引き	指南 指引 向导
cell	携帯電話	单元格 手机
cycle	サイクル 周期	周期 循环
world	世界 ワールド	世界 全球
gas	ガス ガソリン ガス代	燃气 汽油 油价
fix	修正 直し 直す 修理	修复 修正 解决
age	年齢 年代	年龄 岁数
interface	インターフェース	界面 接口
primary	主要 メイン プライマリ	主要 首要
ready	準備完了 準備ができ	就绪 准备好
continue	続け 続行 継続	继续
enhanced	強化	增强
flexible	柔軟 フレキシブル	灵活 弹性
keep	保持 保存 残し	保留 保持
force	強制	强制
try	試し 試す	尝试 试试
cash	現金 キャッシュ	现金
compact	コンパクト 小型	紧凑 小型
pending	保留中 未処理 処理中	待处理 待定 挂起
draft	下書き ドラフト 草稿	草稿 起草
webpage	ウェブページ ホームページ	网页
clinical	臨床	临床
critical	重大 致命的 クリティカル	严重 关键
insert	挿入	插入
capital	首都 資本	首都 资本
annual	年次 年間 毎年	年度 每年 年报
preview	プレビュー 下見	预览
flag	フラグ 国旗	标记 国旗
actor	俳優 役者	演员
capture	キャプチャ 撮影 取り込み	截图 捕获 截屏
browse	閲覧 ブラウズ	浏览
recipient	受信者 宛先 受取人	收件人 接收人 收款人
duplicate	重複 複製	重复 复制
watch	腕時計 視聴 監視 ウォッチ	观看 监视 手表
push	プッシュ	推送
income	収入 所得	收入
journal	日記 ジャーナル 仕訳	日记 期刊 日志
growth	成長 伸び	增长 成长
console	コンソール	控制台
subscribe	購読 サブスク	订阅
behavior	行動 挙動	行为
speech	音声 スピーチ 演説	语音 演讲
btc	ビットコイン	比特币
header	ヘッダー	页眉 标头
static	静的	静态
opportunity	機会 チャンス 商談	机会 商机
unused	未使用	未使用 闲置
swap	スワップ 交換 入れ替え	兑换 交换
ignore	無視	忽略
perfect	完璧	完美
champion	チャンピオン 優勝	冠军
comparison	比較	比较 对比
finance	金融 財務 ファイナンス	金融 财务
story	物語 ストーリー	故事
desktop	デスクトップ	桌面
manual	マニュアル 手動 説明書	手册 手动 说明书
music	音楽 ミュージック	音乐
traffic	交通 渋滞 トラフィック アクセス数	交通 路况 流量
utility	ユーティリティ 公共料金	公用事业 水电费
cleanup	整理 クリーンアップ 片付け	清理
membership	会員 メンバーシップ	会员
secret	秘密 シークレット	秘密 密钥
study	研究 勉強 学習	研究 学习
depth	深さ 深度	深度
fee	手数料 料金 費用	费用 手续费
verification	検証 確認 認証	验证 核实
diff	差分	差异
budget	予算	预算
catalog	カタログ 目録	目录 商品目录
quantity	数量	数量
mobile	モバイル 携帯 スマホ	手机 移动端
ingest	取り込み	导入 摄取
revenue	売上 収益	营收 收入
supply	供給	供应 供给
bot	ボット	机器人
mailbox	メールボックス 郵便受け	邮箱 信箱
crawl	クロール	爬取 抓取 爬虫
trash	ゴミ箱	回收站 垃圾箱
license	ライセンス 免許	许可证 执照 授权
investigation	調査	调查
dynamic	動的	动态
mac	マック	苹果电脑
regular	通常 定期	常规 普通
excel	エクセル	
letter	手紙 レター	信件 字母
whitespace	空白	空格 空白
print	印刷 プリント	打印
enrich	補完 エンリッチ	丰富 补全
material	素材 材料 資料	材料 素材
newlines	改行	换行
consumer	消費者	消费者
reaction	反応 リアクション	反应
explain	説明 解説	解释 说明
prefix	接頭辞 プレフィックス	前缀
annotations	注釈 アノテーション	注释 标注
decimal	小数 10進	小数 十进制
profitability	収益性	盈利能力
picture	写真 画像	图片 照片
skip	スキップ 飛ばし	跳过
incident	インシデント 事故 障害	事件 事故 故障
guidance	ガイダンス 指導	指导 指引
layer	レイヤー 階層	图层 层级
delegate	委任	委托
submit	提出 送信	提交
native	ネイティブ	原生 母语
vulnerability	脆弱性	漏洞
respond	返信 回答 応答	回复 回应
frequency	頻度 周波数	频率
breaking	速報	突发
observations	観測 観察	观测 观察
wikipedia	ウィキペディア	维基百科
timezone	タイムゾーン 時差	时区 时差
major	主要 大手	主要 重大
button	ボタン	按钮
recursive	再帰	递归
air	空気 大気	空气
house	住宅 一軒家 ハウス	房子 住宅
sent	送信済み	已发送
expiration	有効期限 期限切れ 満了	过期 有效期 到期
troubleshooting	トラブルシューティング 故障	故障排除 排查
scholar	学者	学者 学术
expand	展開 拡大 拡張	展开 扩展 扩大
alias	別名 エイリアス	别名
modification	変更 修正	修改 变更
outcome	結果 成果	结果
systematic	体系的	系统性
clean	掃除 クリーン きれいに	清洁 清理 打扫
switch	切り替え 切替 スイッチ	切换 开关
cover	表紙 カバー 補償	封面 覆盖
song	楽曲 歌詞 ソング	歌曲
resolution	解像度 解決	分辨率 解决
extension	拡張機能 延長 内線	扩展 插件 延期
portfolio	ポートフォリオ 資産構成	投资组合 作品集
decode	デコード 復号	解码
sprint	スプリント	冲刺
analyst	アナリスト	分析师
trial	試用 トライアル 治験 裁判	试用 试验 审判
variant	バリエーション 変種 変異	变体 变种
attempts	試行	尝试次数
photo	写真 フォト	照片 相片
diagram	図表 ダイアグラム 図解	图表 示意图
nearby	近く 付近 周辺 近所	附近 周边
establish	設立 確立	建立 设立
reached	到達	到达
heading	見出し	标题
slide	スライド	幻灯片
billing	請求 課金	账单 计费
certificate	証明書 資格	证书 证明
persistent	永続	持久 持续
formula	数式 公式	公式
accurate	正確	准确 精确
choice	選択肢 選択	选择 选项
easy	簡単	简单 容易
recipes	レシピ 料理	食谱 菜谱
core	中核 核心	核心
gathering	収集 集まり	收集 聚会
purchase	購入 買い 買う	购买 采购
speed	速度 スピード	速度
split	分割 割り勘	拆分 分割
coverage	カバレッジ 補償範囲	覆盖率 覆盖范围
insider	インサイダー	内幕 内部人士
box	ボックス 箱に	盒子 箱子
car	自動車 クルマ 車の	汽车 车辆
baseball	野球	棒球
album	アルバム	专辑 相册
programming	プログラミング	编程
physical	物理 身体	物理 实体
backup	バックアップ	备份
quran	コーラン	古兰经
threat	脅威	威胁
notebook	ノート ノートブック	笔记本
pay	支払 払い 払う 払っ	支付 付款
backlog	バックログ 積み残し	待办 积压
tips	ヒント コツ チップ	提示 技巧 小费
league	リーグ	联赛 联盟
factor	要因 因子	因素 因子
dimensions	寸法 サイズ 次元	尺寸 维度
sector	セクター 業種 分野	行业 板块 领域
width	横幅	宽度
investors	投資家	投资者 投资人
holder	保有者 所有者	持有人
participants	参加者	参与者 参加者
signature	署名 サイン	签名
trace	追跡 トレース	追踪 跟踪
queue	キュー 待ち行列	队列 排队
child	子供 子ども	儿童 孩子
breakdown	内訳	明细 细分
partner	パートナー 提携	合作伙伴 伙伴
clone	クローン 複製	克隆
microsoft	マイクロソフト	微软
instrument	楽器 機器	乐器 仪器
dump	ダンプ	转储
emoji	絵文字	表情 表情符号
improve	改善 向上 改良	改进 提升 改善
standings	順位表 順位	积分榜 排名
impact	影響 インパクト	影响
remaining	残り	剩余
hierarchy	階層	层级 层次
center	中心 センター	中心
disk	ディスク	磁盘 硬盘
transition	遷移 移行 トランジション	过渡 转换
choose	選ぶ 選ん 選び 選択	选择 挑选
beginning	初め 最初 冒頭	开始 开头
joke	冗談 ジョーク	笑话
virtual	仮想 バーチャル	虚拟
inventory	在庫	库存
cast	出演者 配役	演员表 投屏
phrase	フレーズ 言い回し 語句	短语 词组
inbox	受信トレイ 受信箱	收件箱
leave	休暇 退出	离开 请假
widget	ウィジェット	小组件 控件
oscillator	オシレーター	振荡指标
immediately	すぐに 即時	立即 马上
discussion	議論 ディスカッション 討論	讨论
drawing	描画 図面 お絵描き	绘图 画画 图纸
revision	改訂 リビジョン 修正版	修订 版本
central	中央	中央 中心
background	背景 バックグラウンド	背景
radius	半径	半径
restaurant	レストラン 飲食店	餐厅 饭店 餐馆
visit	訪問 訪れ	访问 参观 拜访
apple	リンゴ アップル	苹果
internet	インターネット	互联网 网络 上网
prevent	防止 防ぐ 防ぎ 予防	防止 预防
exit	出口 終了	出口 退出
bet	賭け ベッティング	下注 投注
hashtag	ハッシュタグ	话题标签
increasing	増加	增加 递增
sum	合計	总和 求和 合计
premium	プレミアム 有料	高级 会员
sports	スポーツ	体育 运动
face	顔認識 フェイス 顔写真	人脸 面部
severity	重大度 深刻度	严重程度
exam	試験 テスト	考试
expenses	経費 支出 費用	开支 支出 费用
resume	履歴書 再開	简历 恢复 继续
patient	患者	患者 病人
scene	シーン 場面	场景
quiz	クイズ	测验 问答
concise	簡潔	简洁 简明
gain	獲得 利益	收益 获得
congress	議会	国会 国会议员
vault	金庫 保管庫	保险库 金库
truncating	切り詰め	截断
affected	影響	受影响
significance	有意性 重要性	意义 显著性
left	左側	左边 左侧
cat	猫ちゃん ネコ 子猫	猫咪 小猫
signals	シグナル 信号	信号
round	四捨五入 ラウンド	四舍五入 回合
brand	ブランド 銘柄	品牌
matrix	行列 マトリックス	矩阵
invite	招待	邀请
pause	一時停止	暂停
firewall	ファイアウォール	防火墙
safe	安全	安全
registry	登録簿 レジストリ	注册表
restore	復元 リストア	恢复 还原
qualified	適格 有資格	合格 有资格
volatility	ボラティリティ 変動率	波动率 波动性
toggle	切り替え トグル	切换
collaborators	共同作業者 コラボレーター	协作者 合作者
feedback	フィードバック 感想 意見	反馈 意见
dividend	配当	股息 分红
phase	段階 フェーズ	阶段
brief	概要 簡潔	简报 简要
near	近く 近い	附近 靠近
embeddings	埋め込み エンベディング	嵌入 向量
administrative	行政	行政
institutional	機関投資家	机构
family	家族 ファミリー	家庭 家人 家族
vehicles	車両	车辆
evolve	進化	进化
explanation	説明 解説	解释 说明
concurrency	並行 同時実行	并发
timeframe	期間 時間枠	时间范围 周期
inspect	検査 点検	检查 检视
guidelines	ガイドライン 指針	指南 准则
worldwide	世界中 全世界	全球 世界各地
right	右側	右边 右侧
experience	経験 体験	经验 体验
speak	話す 話し	说话
later	後で あとで	稍后 以后
food	食べ物 食品 料理 フード	食物 美食 食品
exception	例外	例外 异常
todo	やること タスク	待办
simplified	簡体字 簡略化	简体 简化
invoice	請求書 インボイス	发票
sender	送信者 差出人	发件人 发送者
discovery	発見	发现
acquisition	買収 取得 獲得	收购 获取
disclosure	開示 情報開示	披露 公告
tracker	トラッカー 追跡	追踪器 跟踪
descending	降順	降序
unread	未読	未读
medium	中程度 媒体	中等 媒介
proposal	提案 企画書	提案 建议书 方案
gene	遺伝子	基因
interpretation	解釈 通訳	解读 解释
earth	地球	地球
degrees	度数 学位	度数 学位
charging	充電	充电
yahoo	ヤフー	雅虎
mutual	相互 投資信託	共同 相互
newly	新しく 新規	新增
shape	形状 図形	形状
latin	ラテン	拉丁
registration	登録 申し込み	注册 登记 报名
menu	メニュー 献立	菜单
reduce	削減 減らす 減らし	减少 降低
classification	分類	分类
chapter	章節 チャプター	章节
screen	画面 スクリーン	屏幕 画面
evidence	証拠 根拠 エビデンス	证据
software	ソフトウェア ソフト	软件
stable	安定	稳定
facebook	フェイスブック	脸书
marketplace	マーケットプレイス 市場	市场 交易平台
disconnect	切断	断开
checklist	チェックリスト	清单 检查表
mutation	変異 突然変異	突变
star	恒星 星評価	恒星 星标 星星
subject	件名 科目 主題	主题 科目
park	公園 駐車	公园 停车
amenities	設備 アメニティ	设施 便利设施
meters	メートル	
around	周辺 周り	周围 周边
sensitive	機密 敏感	敏感
scenarios	シナリオ 想定	场景 情景
resize	リサイズ サイズ変更	调整大小 缩放
finished	完了 終了	完成 已完成
override	上書き	覆盖
commodities	商品先物 コモディティ	大宗商品
claim	請求 申請 主張	索赔 声明 认领
thumbnail	サムネイル	缩略图
episodes	エピソード 話数	剧集 集数
timeline	タイムライン 年表	时间线 时间轴
exercise	運動 練習 エクササイズ	运动 锻炼 练习
consistency	一貫性 整合性	一致性
light	照明 明かり	灯光 照明
pocket	ポケット	口袋
abstract	要旨 抄録 抽象	摘要 抽象
notation	表記 記法	记法 符号
duck	アヒル カモ	鸭子
shopping	買い物 ショッピング	购物
categorized	分類 カテゴリ別	分类
adapt	適応 調整	适应 调整
preserving	保持	保留 保持
edge	エッジ	边缘
facts	事実 豆知識	事实
margin	余白 マージン 利益率	边距 利润率 保证金
corporate	企業 法人	企业 公司
refine	洗練 絞り込み 改良	优化 细化 完善
paragraph	段落	段落
sync	同期	同步
legal	法律 法的	法律 合法
zip	圧縮ファイル	压缩包
zone	ゾーン 地域 区域	区域
nearest	最寄り 一番近い	最近的 最接近
sentiment	感情 センチメント 評判	情绪 情感 舆情
worker	作業者 労働者 ワーカー	工人 员工
mail	メール 郵便	邮件 邮寄
highest	最高 最も高い	最高
money	お金 金額 マネー	金钱 资金
rewards	報酬 特典 リワード	奖励 积分
constraints	制約	约束 限制
multiply	掛け算 乗算	乘法 相乘
benefit	利点 特典 給付	好处 福利 益处
cookie	クッキー	饼干
hit	ヒット	命中 热门
leader	リーダー 指導者	领导 领袖
win	勝利 勝っ 勝つ	获胜 赢得
drug	医薬品 薬物	药物 药品
population	人口	人口
online	オンライン	在线 网上
education	教育	教育
trust	信頼 信託	信任 信托
etfs	上場投資信託	交易所交易基金
prioritize	優先順位 優先	优先 优先级
customizable	カスタマイズ	可定制 自定义
exclusive	限定 独占	独家 专属
negative	否定的 ネガティブ マイナス	负面 负数 消极
ownership	所有権	所有权
granularity	粒度	粒度
newest	最新	最新
probability	確率	概率
faster	高速化 より速く	更快 加速
identification	識別 特定 身分証	识别 鉴定
autocomplete	自動補完 オートコンプリート	自动补全 自动完成
forex	為替 外国為替	外汇
monday	月曜日 月曜	星期一 周一
equivalent	同等 相当	等价 相当于
playback	再生	播放 回放
spam	迷惑メール スパム	垃圾邮件
female	女性 メス	女性 雌性
male	男性 オス	男性 雄性
redirect	リダイレクト 転送	重定向 跳转
technology	技術 テクノロジー	技术 科技
gender	性別 ジェンダー	性别
hotspots	ホットスポット 人気スポット	热点
memo	メモ帳 覚え書き メモを	备忘录 备忘
filesystem	ファイルシステム	文件系统
concepts	概念 コンセプト	概念
deprecated	非推奨	弃用 已废弃
skill	スキル 技能	技能
suitable	適切 ふさわしい	合适 适合
art	芸術 アート 美術	艺术 美术
promote	宣伝 昇格 促進	推广 宣传 晋升
boundaries	境界	边界
street	通り 街路 ストリート	街道 马路
school	学校 スクール	学校
hypothesis	仮説	假设
hierarchical	階層	分层 层级
keyboard	キーボード	键盘
editor	編集者 エディタ	编辑器 编辑
double	2倍 ダブル	双倍 双人
small	小さい 小型	小型 小号
chunks	チャンク	分块
unlock	ロック解除 解錠	解锁
lock	施錠 ロックし ロックを	锁定 上锁
abbreviation	略語 省略形	缩写
flight	航空便 フライト 便名	航班 机票
competitive	競争 競合	竞争
vote	投票	投票
inactive	非アクティブ 無効	未激活 不活跃
studio	スタジオ	工作室
valuable	貴重 価値のある	有价值 宝贵
codebase	コードベース	代码库
mouse	マウス ネズミ	鼠标 老鼠
loss	損失	损失 亏损
pitch	ピッチ 投球 売り込み	音高 投球 路演
threshold	閾値 しきい値	阈值
valuation	評価額 バリュエーション 企業価値	估值
vibe	雰囲気	氛围
safest	最も安全	最安全
iteration	反復 イテレーション	迭代
consolidated	連結 統合	合并 汇总
maintenance	メンテナンス 保守 整備	维护 保养
regulatory	規制	监管 法规
transport	輸送 交通	运输 交通
situations	状況	情况
department	部署 部門 学部	部门 院系
delivery	配達 配送 出前 デリバリー	配送 外卖 快递
cause	原因	原因
camera	カメラ	相机 摄像头
strength	強さ 強度	强度 力量
drag	ドラッグ	拖动 拖拽
professional	専門的 プロフェッショナル	专业 专业人士
wind	風速 風向	风速 风力 风向
precipitation	降水量 降水	降水 降水量
sitemap	サイトマップ	网站地图
grid	グリッド 格子	网格
retro	レトロ	复古
protection	保護	保护 防护
equal	等しい 同じ	相等 等于
old	古い	旧版 老旧
simultaneously	同時	同时
clip	クリップ 切り抜き	剪辑 片段
driver	ドライバー 運転手	司机 驱动
narrow	狭い 絞り込み	缩小 狭窄
cart	カート 買い物かご	购物车
ascending	昇順	升序
york	ニューヨーク	纽约
audience	視聴者 観客 オーディエンス	观众 受众
airport	空港	机场
tide	潮汐 潮位 潮見	潮汐 潮位
pet	ペット	宠物
logout	ログアウト	退出登录 登出
permit	許可 許可証	许可 许可证
flash	フラッシュ 速報	闪光 闪存
community	コミュニティ 地域社会	社区 社群
bmi	肥満度	体重指数
minecraft	マイクラ マインクラフト	我的世界
breed	品種 犬種	品种
binary	バイナリ 二進	二进制
geolocation	位置情報	地理位置 定位
tile	タイル	瓷砖 瓦片
whitelist	ホワイトリスト 許可リスト	白名单
hotel	ホテル 宿泊 旅館	酒店 宾馆 住宿
highlight	ハイライト 強調	高亮 亮点
launch	起動 発売 打ち上げ リリース	启动 发布 发射
bridge	ブリッジ 橋渡し	桥梁 跨链
invoke	呼び出し 実行	调用
frequently	頻繁 よく	经常 频繁
accuracy	精度 正確さ	准确率 精度
tensor	テンソル	张量
medical	医療 医学	医疗 医学
ledger	台帳 元帳	账本 分类账
bug	バグ 不具合	漏洞 缺陷
exponential	指数関数 指数	指数
confidence	信頼度 自信 確信度	置信度 信心
unified	統一 統合	统一
disease	病気 疾患 疾病	疾病 病症
sequential	順次 連続	顺序 依次
resistance	抵抗 耐性 レジスタンス	阻力 抵抗 耐药
examine	調べ 調査 検査	检查 查看 审查
mechanics	仕組み 力学 メカニクス	机制 力学
facilities	施設 設備	设施
trip	旅行 トリップ	旅行 行程 出行
district	地区 区域	地区 区域
bar	居酒屋 飲み屋 棒グラフ	酒吧 条形图
repeat	繰り返し 繰り返す リピート	重复
chinese	中国語	中文 汉语
fundamental	基本 ファンダメンタル	基本面 基础
upgrade	アップグレード	升级
theme	テーマ 主題	主题
red	赤い レッド 赤色	红色
academic	学術 アカデミック 論文	学术
distinct	一意 重複なし	不同 去重
caution	注意 警告	注意 警告
avatar	アバター	头像
climate	気候	气候
grade	成績 学年 等級 グレード	成绩 年级 等级
join	参加 加入 結合	加入 参加
lost	紛失 失くし 無くし 迷子	丢失 遗失
idea	アイデア アイディア	想法 点子 创意
broadcast	放送 配信	广播 直播
captcha	画像認証	验证码
zoom	ズーム 拡大	缩放 放大
contribution	貢献 寄付	贡献
placement	配置	放置 位置
pressure	圧力 気圧 血圧	压力 气压
milestone	マイルストーン	里程碑
bundle	バンドル セット販売	套餐 捆绑
tier	階層 プラン ティア	等级 层级 档次
secondary	二次 副次	次要 辅助
sky	天空 空模様	天空
recognition	認識	识别
postal	郵便	邮政 邮寄
friendly	親しみやすい 優しい	友好 友善
province	都道府県	省份
headlines	見出し ヘッドライン 主要ニュース	头条 标题
creative	クリエイティブ 創造的	创意 创造性
lower	下げ 低い	降低 更低
occurrences	出現	出现次数
train	電車 列車 訓練	火车 列车 训练
recognize	認識 識別	识别 认出
silent	無音 サイレント	静音
poll	アンケート 投票	投票 民意调查
expert	専門家 エキスパート	专家
tax	税金 税務 税率	税收 税务 税费
enumerate	列挙	枚举 列举
difficulty	難易度 難しさ	难度
peer	同業 ピア	同行 同业
tomorrow	明日	明天
nationality	国籍	国籍
extra	追加 余分	额外 附加
director	監督 取締役 ディレクター	导演 董事 主管
aspect	側面 アスペクト比	方面 宽高比
fake	偽物 フェイク ダミー	虚假 伪造
pollution	汚染	污染
plus	プラス	加上
competitors	競合 ライバル 競合他社	竞争对手 竞品
blog	ブログ	博客
beta	ベータ	测试版
lowest	最安 最低	最低 最便宜
paid	有料 支払済み	付费 已支付
wild	野生	野生
enforce	強制 施行	执行 强制
dropdown	ドロップダウン	下拉
persona	ペルソナ	人设 用户画像
tester	テスター	测试员
leverage	レバレッジ 活用	杠杆 利用
announcement	お知らせ 告知 発表	公告 宣布
tenant	テナント 入居者	租户 房客
slot	空き枠 スロット	时段 空位 插槽
mint	ミント 発行	铸造 薄荷
fun	楽しい 面白い	有趣 好玩
mining	マイニング 採掘	挖矿 采矿
senate	上院	参议院
overdue	期限切れ 延滞	逾期 过期
notify	通知 知らせ	通知 提醒
workout	筋トレ ワークアウト トレーニング	锻炼 健身
intent	意図	意图
master	マスター 習得	掌握 精通 大师
skin	スキンケア 肌荒れ スキン	皮肤 护肤
kill	強制終了	终止 杀死
composition	構成 組成 作曲	构成 作曲 组成
citations	引用	引用 引文
changelogs	変更履歴	更新日志
convenience	利便性 コンビニ	便利 便利店
capacity	容量 定員 キャパシティ	容量 容纳
uncertainty	不確実性	不确定性
satisfied	満足	满意
moments	瞬間 モーメント	瞬间 时刻
benchmarks	ベンチマーク 基準	基准 跑分
journey	旅程 道のり	旅程 旅行
airbnb	エアビー 民泊	民宿 爱彼迎
fitness	フィットネス	健身
shift	シフト 勤務	班次 转变
scroll	スクロール	滚动
rotation	回転 ローテーション	旋转 轮换
rugby	ラグビー	橄榄球
office	事務所 オフィス	办公室
prospects	見込み客 見通し	潜在客户 前景
seller	販売者 出品者 売り手 セラー	卖家 商家
outdoor	アウトドア 屋外	户外
covid	コロナ 新型コロナ	新冠 疫情
discounted	割引 値引き	折扣 打折 优惠
deadline	締め切り 締切 期限	截止日期 期限 最后期限
sms	ショートメール ショートメッセージ	短信
fly	飛行 飛ぶ	飞行 坐飞机
eur	ユーロ	欧元
fire	火事 火災	火灾 着火
nutritional	栄養	营养
brazilian	ブラジル	巴西
latency	遅延 レイテンシ	延迟 时延
finder	ファインダー	查找
sound	サウンド 音声 効果音	声音 音效
captions	字幕 キャプション	字幕 说明文字
dog	愛犬 ワンちゃん 子犬	狗狗 小狗
conference	会議 カンファレンス 学会	会议 大会
wish	願い 希望 ウィッシュリスト	愿望 心愿
attack	攻撃	攻击
mental	メンタル 精神	心理 精神
floor	フロア 床面	楼层 地板
withdrawal	出金 引き出し 退会	提现 取款 提款
align	揃え 整列	对齐
fuzzy	あいまい 曖昧	模糊
compile	コンパイル	编译
diagnose	診断	诊断
slow	遅い 低速	缓慢 太慢
asynchronous	非同期	异步
sufficient	十分	足够 充足
traders	トレーダー	交易员
canned	定型文	快捷回复 罐头
bookmark	ブックマーク お気に入り	书签 收藏
leaderboard	ランキング リーダーボード	排行榜
advice	アドバイス 助言	建议 忠告
deck	デッキ	卡组 演示文稿
genetic	遺伝	遗传 基因
intervention	介入	干预
europe	ヨーロッパ 欧州	欧洲
allocation	配分 割り当て	分配 配置
broad	広い 幅広い	广泛
axis	座標軸 軸を	坐标轴
extreme	極端 エクストリーム	极端
life	生活 人生 生命	生活 生命 人生
governance	ガバナンス 統治	治理
challenges	課題 チャレンジ	挑战
subtitles	字幕	字幕
pixel	ピクセル 画素	像素
spin	回転 スピン	旋转
spec	仕様 スペック	规格 规范
yesterday	昨日	昨天
emergency	緊急 救急	紧急 急诊
minimal	最小限 ミニマル	最小 极简
overwrite	上書き	覆盖 覆写
logo	ロゴ	标志 徽标
older	古い 以前	更早 较旧
aircraft	航空機 飛行機	飞机 航空器
assumptions	前提 仮定	假设 前提
arrival	到着	到达 抵达
influencers	インフルエンサー	网红 博主 达人
japanese	日本語 和訳	日语 日文
films	映画	电影 影片
exploitation	悪用 搾取	利用 剥削
mixed	混合 ミックス	混合
sentence	文章 例文	句子 例句
approximate	概算 近似 おおよそ	大约 近似
plate	ナンバープレート プレート	车牌 盘子
identity	身元 アイデンティティ 本人確認	身份
encrypt	暗号化	加密
fans	ファン フォロワー	粉丝
dialect	方言	方言
kilograms	キロ キログラム	公斤 千克
imperial	ヤード・ポンド法 帝国	英制 帝国
opinion	意見	意见 观点
prepare	準備 用意	准备
percent	パーセント 割合	百分比
favorite	お気に入り 好き	收藏 最爱 喜欢
circulation	流通 循環 発行部数	流通 循环
scraper	スクレイパー	爬虫 抓取
divide	割り算 分割	除法 划分
perspectives	視点 観点	视角 观点
formal	正式 フォーマル 丁寧	正式 书面
pokemon	ポケモン	宝可梦
remediation	修復 是正	修复 整改
suspended	停止 凍結 一時停止	暂停 冻结 停用
plot	プロット グラフ あらすじ	绘图 情节 剧情
student	学生 生徒	学生
staking	ステーキング	质押
artwork	アートワーク 作品	艺术品 作品
mlb	メジャーリーグ	美职棒
parallel	並列 並行	并行
creator	作成者 クリエイター	创作者 作者
spend	支出 出費	花费 消费 支出
unsubscribe	購読解除 配信停止 登録解除	取消订阅 退订
bid	入札	出价 投标 竞价
plane	飛行機 平面	飞机 平面
forum	フォーラム 掲示板	论坛
alien	宇宙人 エイリアン	外星人
deactivation	無効化 停止	停用 禁用
compress	圧縮	压缩
absence	欠席 不在 休暇	缺席 请假
spent	費やし 使った	花费 花了
oncall	オンコール 当番	值班
manga	漫画 マンガ	漫画
triage	トリアージ 優先順位付け	分诊 分类处理
boy	男の子 少年	男孩
advisories	勧告 注意報	公告 警报
cashflow	キャッシュフロー 資金繰り	现金流
meal	食事	饭菜 餐食 一餐
scientific	科学的	科学
clipboard	クリップボード	剪贴板
douyin		抖音
neighborhood	近所 周辺 地域	社区 街区 附近
irrelevant	無関係	无关
solar	太陽光 ソーラー 太陽	太阳能 太阳
university	大学	大学
museum	博物館 美術館	博物馆 美术馆
mergers	合併	并购 合并
angle	角度	角度
divisions	部門 事業部	部门 分部
proportion	割合 比率	比例
attractions	観光地 名所 観光スポット	景点 景区
inches	インチ	英寸
achieve	達成	实现 达成
conflicts	競合 衝突 コンフリクト	冲突
grants	助成金 補助金	资助 补助金 拨款
uncompleted	未完了	未完成
reveal	明らか 公開	揭示 揭露
outline	アウトライン 概要 目次	大纲 提纲 轮廓
characteristics	特徴 特性	特征 特点
square	正方形 四角 平方	正方形 平方 广场
sold	販売済み 売却 売れ	已售 售出
bus	路線バス バス停 バスで	公交 巴士 公交车
viewer	ビューア 閲覧者	查看器 观众
cricket	クリケット	板球
union	組合 連合	工会 联盟
decrypt	復号 解読	解密
pack	梱包 荷造り	打包 包装
reel	リール	短视频 卷轴
candlestick	ローソク足	K线 蜡烛图
techniques	技術 テクニック 手法	技巧 技术
rental	レンタル 賃貸	租赁 出租 租房
greeting	挨拶 あいさつ	问候 祝福语
tiktok	ティックトック	抖音
dive	ダイビング 潜水	潜水
backward	後方 逆方向	向后 反向
adults	大人 成人	成人 大人
barcode	バーコード	条形码 条码
diffusion	拡散	扩散
mini	ミニ 小型	迷你
architecture	建築 アーキテクチャ 構成	架构 建筑
intermediate	中級 中間	中级 中间
instant	インスタント 即時	即时 速溶
curated	厳選 キュレーション	精选
derivatives	デリバティブ 派生	衍生品
retry	再試行 リトライ	重试
pulse	脈拍 パルス	脉搏 脉冲
portugal	ポルトガル	葡萄牙
batter	打者 バッター	击球手
subway	地下鉄	地铁
revoke	取り消し 失効 無効化	撤销 吊销
gaps	隙間 ギャップ 空き	差距 缺口 空档
bands	バンド 帯域	乐队 波段
humidity	湿度	湿度
momentum	勢い モメンタム	动量 势头
rollout	展開 ロールアウト	推出 上线
joint	共同 関節	联合 关节
revert	元に戻 差し戻し 取り消し	还原 撤回 回滚
pseudocode	疑似コード	伪代码
worksheet	ワークシート	工作表
workload	作業量 負荷	工作量 负载
teamwork	チームワーク 協力	团队合作
reminder	リマインダー リマインド	提醒 提醒事项
unresolved	未解決	未解决
pick	選ぶ 選択	挑选 选择
counter	カウンター 計数	计数器
summoner	サモナー 召喚士	召唤师
mistakes	間違い 誤り	错误 失误
bio	プロフィール 経歴 自己紹介	简介 个人简介
eligible	対象 適格 資格のある	符合条件 合格
recruiting	採用 求人 リクルート	招聘 招募
science	科学 サイエンス	科学
tourism	観光	旅游 观光
estate	不動産	房地产 地产
lot	駐車場 区画	停车场 地块
histogram	ヒストグラム	直方图
concentrations	濃度	浓度
eps	一株当たり利益	每股收益
fear	恐怖	恐惧 恐慌
greed	強欲	贪婪
hacker	ハッカー	黑客
heroes	ヒーロー 英雄	英雄
font	フォント 書体	字体
ambiguous	曖昧	模糊 歧义
bottom	下部 一番下	底部
upper	上部 上限 大文字	上部 上限 大写
dialog	ダイアログ 対話	对话框 对话
autonomous	自律 自動運転	自主 自动驾驶
hot	暑い 熱い 人気 ホット	热门 火热
rejected	却下 拒否	被拒 拒绝
shipping	配送 送料 発送 出荷	运费 发货 配送 物流
energy	エネルギー 電力	能源 能量
airplanes	飛行機	飞机
riddle	なぞなぞ 謎解き	谜语 脑筋急转弯
zipcode	郵便番号	邮编 邮政编码
race	レース 競争 人種	比赛 赛车 种族
algorithm	アルゴリズム	算法
unknown	不明 未知	未知 不明
fiat	法定通貨	法币
extractor	抽出	提取器 提取
rapid	迅速 高速	快速
banner	バナー 横断幕	横幅 横幅广告
usa	アメリカ 米国	美国
spoken	話し言葉 口語	口语
demo	デモ 実演	演示
gallery	ギャラリー 画廊	图库 画廊 相册
alive	生存 生きて	活着 存活
motorsport	モータースポーツ	赛车 汽车运动
elevation	標高 高度	海拔 高程
conventions	規約 慣例	惯例 规范
subtract	引き算 差し引	减法 减去
stability	安定性	稳定性
disaster	災害 防災	灾害 灾难
generic	ジェネリック 汎用	通用 仿制药
largest	最大	最大
appointments	予約 アポ 面会	预约 约会
hints	ヒント	提示
compensation	報酬 補償 給与	薪酬 补偿 赔偿
emissions	排出量 排出	排放
urgent	緊急 至急	紧急 加急
cultural	文化	文化
closest	最寄り 一番近い	最近的 最接近
foreign	外国 海外	外国 国外
shorten	短縮 短く	缩短
phishing	フィッシング	网络钓鱼
variety	種類 多様 バラエティ	多样 种类 综艺
subdomains	サブドメイン	子域名
increment	増加 インクリメント	递增 增加
landscape	風景 景観 横向き	风景 景观 横向
factual	事実	事实
strong	強い 強力	强大 强力
blacklist	ブラックリスト	黑名单
everyone	全員 みんな	所有人 大家
pop	ポップ	流行 流行音乐
safety	安全 安全性	安全 安全性
fresh	新鮮 フレッシュ	新鲜
compound	化合物 複利	化合物 复利
epoch	エポック	纪元
oldest	最古 一番古い	最早 最旧
deposit	入金 預金 デポジット 手付金	存款 押金 充值
congestion	混雑 渋滞	拥堵 拥挤
catch	捕まえ キャッチ	捕获
mathematical	数学	数学
heart	心臓 ハート	心脏 心率
political	政治	政治
pitcher	投手 ピッチャー	投手
workbook	ワークブック	工作簿
sensor	センサー	传感器
recycle	リサイクル 再利用	回收 再利用
cents	セント	美分
replica	レプリカ	副本 复制品
pump	ポンプ 急騰	拉盘 暴涨
reopen	再開 再オープン	重新打开 重开
sticky	付箋 固定	便签 置顶
unpublish	非公開 公開停止	取消发布 下架
upscale	アップスケール 高画質化	高清化 超分 放大
ether	イーサリアム	以太坊 以太币
atmospheric	大気	大气
weak	弱い	较弱 薄弱
literature	文献 文学	文献 文学
remember	覚え 記憶	记住 记忆
genome	ゲノム	基因组
departure	出発	出发 起飞 离开
surface	表面	表面
inference	推論	推理 推断
ceo	社長 最高経営責任者	首席执行官 总裁
pinned	ピン留め 固定	置顶 固定
hospital	病院	医院
landing	着陸 ランディング	着陆 落地页
blank	空白	空白
bullet	箇条書き 弾丸	项目符号 子弹
scheme	スキーム 配色	方案 计划
clarification	明確化 確認	澄清 说明
checkout	チェックアウト 会計	结账 退房
circles	サークル 円形	圆圈 圈子
dot	ドット	圆点
permalink	パーマリンク 固定リンク	永久链接
ongoing	進行中 継続中	进行中 持续
mandatory	必須	必填 强制
cup	カップ	杯子 世界杯
tour	ツアー 観光 見学	旅游 旅行团 游览
tournament	大会 トーナメント	锦标赛 比赛
shot	ショット 撮影 注射	投篮 镜头 射门
advertise	広告 宣伝	广告 宣传
dollar	ドル	美元 美金
minor	軽微 マイナー 未成年	次要 轻微
walls	壁紙 ウォール	墙壁 墙体
far	遠い 遠く	多远 远处
upvotes	高評価 いいね 賛成票	点赞 赞成票
agile	アジャイル	敏捷
road	道路	道路 公路
european	ヨーロッパ 欧州	欧洲
markers	マーカー 目印	标记
germany	ドイツ	德国
vendor	ベンダー 販売業者 業者	供应商 卖家
poster	ポスター	海报
milliseconds	ミリ秒	毫秒
anonymous	匿名	匿名
postcode	郵便番号	邮编
sustainability	持続可能性 サステナビリティ	可持续性 可持续发展
replicate	複製 再現	复制 复现
proof	証明 証拠 校正	证明 证据 校对
american	アメリカ 米国	美国 美式
equation	方程式 数式	方程 等式
liabilities	負債	负债
exposure	露出 エクスポージャー 暴露	曝光 风险敞口
environmental	環境	环境 环保
meme	ミーム	表情包
talks	講演 トーク 会談	演讲 会谈 讲座
transparency	透明性 透明度	透明度
visitor	訪問者 来場者	访客 游客
qrcode	QRコード	二维码
otp	ワンタイムパスワード	验证码 一次性密码
portal	ポータル	门户
water	水道 水質 水分	饮用水 水质 水费
ability	能力	能力
planet	惑星	行星
declaration	申告 宣言	申报 声明
manipulate	操作 加工	操作 处理
inquiry	問い合わせ 照会	咨询 询问 查询
produce	生産 作成 農産物	生产 制作
perpetual	永久 無期限 パーペチュアル	永续 永久
fragment	断片	片段 碎片
ecosystem	生態系 エコシステム	生态系统 生态
big	大きい 大型	大型 大号
seed	シード 種子	种子
figures	図表 数字 人物	图表 数据 人物
refactor	リファクタリング	重构
vertical	垂直 縦向き	垂直 纵向 竖屏
strategic	戦略的	战略
demographic	人口統計 属性	人口统计
beautiful	美しい きれい	美丽 漂亮
receipt	領収書 レシート	收据 小票
verbose	詳細 冗長	详细 冗长
presence	在席 プレゼンス 存在	在线状态 存在
broker	ブローカー 証券会社 仲介	经纪人 券商 中介
crucial	重要	关键
baseline	ベースライン 基準	基线 基准
bond	債券 国債	债券
unexpected	予期しない 想定外	意外 异常
fluctuations	変動	波动
moderate	中程度 適度	适中 中等
assembly	組み立て 議会	组装 装配 议会
dangerous	危険	危险
payee	受取人 支払先	收款人
timer	タイマー	计时器 定时器
reboot	再起動	重启
routine	ルーティン 日課 習慣	日常 例行
enrollment	登録 入学	注册 入学 报名
tech	テック 技術	科技 技术
korea	韓国	韩国
intensive	集中	密集 集中
malware	マルウェア ウイルス	恶意软件 病毒
staff	スタッフ 職員 従業員	员工 职员
candidate	候補者 候補	候选人 候选
winrate	勝率	胜率
chemicals	化学物質 薬品	化学品
protein	タンパク質 プロテイン	蛋白质
synthesis	合成	合成
incomplete	未完了 不完全	未完成 不完整
masked	マスク 伏せ字	遮蔽 掩码 脱敏
diverse	多様	多样
francisco	サンフランシスコ	旧金山
bicycle	自転車	自行车 单车
walking	徒歩 散歩 ウォーキング	步行 走路 散步
cafe	カフェ 喫茶店	咖啡馆 咖啡厅
middle	中間 真ん中	中间
electric	電気 電動	电动 电力
infrastructure	インフラ 基盤	基础设施
residential	住宅 居住	住宅 住宅区
bazi	四柱推命	八字 生辰八字
metropolitan	都市圏 首都圏	都市 大都市
gdp	国内総生産	国内生产总值
fishing	釣り	钓鱼
tailored	カスタマイズ オーダーメイド	定制 量身定制
yield	利回り 収量	收益率 产量
modern	現代 モダン	现代
blue	青い ブルー 青色	蓝色
gray	グレー 灰色	灰色
guess	推測	猜测 猜谜
celsius	摂氏	摄氏
fahrenheit	華氏	华氏
refuse	拒否 断る 断り	拒绝
rectangle	長方形 四角形 矩形	矩形 长方形
magic	魔法 マジック 手品	魔法 魔术
android	アンドロイド	安卓
shadow	シャドウ 影付き	阴影
legacy	レガシー 旧来	遗留 传统
rewrite	書き直し 書き換え リライト	改写 重写
distinguish	区別 見分け	区分 区别
piece	部品 作品	部件
metals	金属 貴金属	金属 贵金属
odds	オッズ 確率	赔率 概率
soccer	サッカー	足球
athlete	選手 アスリート	运动员
plants	植物	植物
bring	持参 持ってき	带来 携带
buyers	購入者 買い手 バイヤー	买家 买方
fulfillment	フルフィルメント 発送	履约 订单履行
party	パーティー 当事者 政党	聚会 派对 政党
california	カリフォルニア	加州 加利福尼亚
ipo	新規上場	上市 首次公开募股
agreement	契約 合意	协议 合同
fastest	最速	最快
neutral	中立 ニュートラル	中性 中立
accomplishments	実績 成果	成就 成绩
spanish	スペイン語	西班牙语 西语
seo	検索エンジン最適化	搜索引擎优化
april	四月 4月	四月 4月
carrier	運送会社 キャリア 通信事業者	承运人 运营商 快递公司
checker	チェッカー	检查器 检测
traditional	伝統的 繁体字	传统 繁体
prototype	試作 プロトタイプ	原型
sticker	ステッカー スタンプ シール	贴纸
fractional	分数 端数	分数 零碎
recurring	定期 繰り返し 定期的	重复 定期 周期性
unwanted	不要	不需要 多余
guests	ゲスト 宿泊者 招待客	客人 宾客 房客
stroke	脳卒中 筆順 ストローク	中风 笔画 笔顺
mercury	水星 水銀	水星 水银
embed	埋め込み	嵌入
salary	給料 給与 年収	工资 薪水 薪资
raster	ラスター	栅格
inflation	インフレ 物価上昇	通胀 通货膨胀
inspired	インスパイア	灵感 启发
sex	性別	性别
writer	作家 ライター 筆者	作家 作者 写手
referral	紹介 リファラル 紹介状	推荐 推荐人 转诊
pos	POSレジ レジ端末	收银
orientation	向き オリエンテーション	方向 朝向
slice	スライス 切り分け	切片 切分
biases	バイアス 偏見	偏见 偏差
critique	批評 添削	评论 批评 点评
vision	ビジョン 視覚 画像認識	视觉 愿景
orderbook	板情報 オーダーブック	订单簿
concerns	懸念 心配	担忧 顾虑
denied	拒否	拒绝 被拒
offline	オフライン	离线
consumption	消費 消費量	消耗 消费 用量
math	数学 計算	数学
synonyms	類義語 同義語	同义词 近义词
stablecoin	ステーブルコイン	稳定币
lowercase	小文字	小写
checkbox	チェックボックス	复选框
entertainment	エンタメ 娯楽 エンターテイメント	娱乐
speaker	スピーカー 話者 講演者	演讲者 扬声器 音箱
surprises	サプライズ 驚き	惊喜 意外
emotes	エモート	表情
realtor	不動産業者	房产经纪
brackets	括弧 かっこ	括号
indentation	インデント 字下げ	缩进
convergence	収束	收敛
aqi	大気質	空气质量
bollinger	ボリンジャーバンド	布林带
mitigating	緩和 軽減	缓解 减轻
eval	評価	评估
privileged	特権	特权
dub	吹き替え ダビング	配音
unarchive	アーカイブ解除	取消归档
nda	秘密保持契約	保密协议
verse	聖句 詩句	诗句 经文
restrictions	制限	限制
approaches	手法 アプローチ	方法 途径
twitter	ツイッター	推特
constituent	構成銘柄	成分股
ball	ボール 球体	小球 球体
ephemeral	一時的 エフェメラル	临时 短暂
experimental	実験的 試験的 実験版	实验性 试验性
temporal	時間的 時系列	时间 时序
diagnostics	診断	诊断
sma	単純移動平均	简单移动平均 均线
decline	辞退 断る 断り 拒否	拒绝 谢绝
evolution	進化 推移	进化 演变
serum	血清	血清
reuse	再利用	重用 复用 再利用
clickable	クリック可能	可点击
vacation	休暇 バケーション 旅行	假期 度假 休假
dow	ダウ平均 ダウ工業株	道琼斯 道指
triple	トリプル 三重	三元组 三倍
implied	インプライド 暗黙	隐含
versus	対戦 比較 対決	对比 对阵
suppress	抑制 非表示	抑制 屏蔽
debounce	デバウンス	防抖
poi	観光スポット 施設 スポット	兴趣点 地点 景点
schematic	回路図 概略図	原理图 示意图
electronics	電子機器 エレクトロニクス 電子回路	电子产品 电子
crashes	クラッシュ 墜落	崩溃 闪退
transcribe	文字起こし 書き起こし 転写	转录 转写 听写
billable	請求可能	计费 可计费
reconfiguring	再設定	重新配置
stoppage	停止 運休	停工 停运
closures	閉鎖 通行止め	关闭 封闭 封路
downtime	ダウンタイム 停止時間	停机 宕机
muscle	筋肉 筋トレ	肌肉
timeseries	時系列	时间序列 时序
clarify	明確化 明確に	澄清 明确
intruder	侵入者	入侵者
imagery	衛星画像 画像	影像 图像
orchestrates	オーケストレーション 統括	编排 协调
attention	注意 注目	注意力 关注
unstar	スター解除	取消星标 取消收藏
treatment	治療 処置	治疗 疗法
synthesizing	合成 統合	合成 综合
adverse	有害事象 副作用	不良反应 副作用
alpha	アルファ 透明度	阿尔法 透明度
alter	変更	修改 更改
ocr	文字認識 光学文字認識	文字识别 图片识字
subcategories	サブカテゴリ 小分類	子类别 子分类
venues	会場	场馆 场地
college	大学 カレッジ	大学 学院
green	緑色 グリーン	绿色
urban	都市 都会	城市 都市
reader	リーダー 読者	阅读器 读者
horizontal	水平 横向き	水平 横向
judge	判定 審査 裁判官	评判 裁判 法官 判断
china	中国	中国
radiation	放射線 放射	辐射
battery	バッテリー 電池	电池 电量
scatter	散布図	散点图
insurance	保険	保险
downgrades	ダウングレード 格下げ	降级 下调
contest	コンテスト 大会	比赛 竞赛
extend	拡張 延長	扩展 延长
gradient	グラデーション 勾配	渐变 梯度
shading	シェーディング 陰影	阴影 着色
footnote	脚注	脚注
mindmap	マインドマップ	思维导图
synchronization	同期	同步
telemetry	テレメトリ 遠隔測定	遥测
early	早期	早期 提前
comfort	快適	舒适
advantage	利点 優位	优势
succeed	成功	成功
white	白色 ホワイト	白色
tempo	テンポ	节奏 速度
harmonics	倍音 高調波	谐波 泛音
tune	チューニング 調整	调优 调音
golf	ゴルフ	高尔夫
women	女性	女性 女子
alphabetically	アルファベット順	字母顺序 按字母
telephone	電話	电话
consult	相談	咨询
paint	ペイント 塗装 描画	绘画 涂色 油漆
rock	ロック音楽 岩石	摇滚 岩石
artificial	人工	人工
gainers	値上がり 上昇銘柄	涨幅榜 领涨
losers	値下がり 下落銘柄	跌幅榜 领跌
quota	クォータ 割り当て 上限	配额 限额
inherit	継承	继承
tolerance	許容 耐性 公差	容差 容忍度 公差
sea	海洋 海面	海洋 海上
sunrise	日の出	日出
sunset	日の入り 日没	日落
moonrise	月の出	月出
moonset	月の入り	月落
fixtures	試合日程 対戦カード	赛程
democratic	民主 民主党	民主 民主党
shelters	避難所 シェルター 保護施設	避难所 收容所
january	1月 一月	一月 1月
affiliates	アフィリエイト 関連会社	联盟 附属公司 分销
newspaper	新聞	报纸
deltas	差分	差异 增量
cny	人民元	人民币
trailers	予告編 トレーラー	预告片
deliverability	到達率	送达率
hidden	非表示 隠し	隐藏
cert	証明書	证书
hiring	採用 求人	招聘
caller	発信者 着信	来电 呼叫方
hide	隠す 隠し 非表示	隐藏
recover	復元 回復 復旧	恢复
manufacturers	メーカー 製造業者	制造商 厂商
pizza	ピザ	披萨
birthday	誕生日	生日
mass	質量 一括	质量 批量
shareholder	株主	股东
tiny	小さい 極小	微小
programmatic	プログラム的	程序化
equipment	機器 設備 装備	设备 装备 器材
jupiter	木星	木星
night	夜間 夜景	夜间 晚上
ingredients	材料 食材 成分	食材 配料 成分
fuel	燃料 ガソリン	燃料 燃油 油价
candle	ローソク足 キャンドル	K线 蜡烛图
coupon	クーポン 割引券	优惠券
streamlined	合理化 簡素化	精简
blend	ブレンド 混合	混合 融合
procedures	手順 手続き	流程 程序 步骤
viewpoints	視点 観点	观点 视角
cite	引用	引用
tunnel	トンネル	隧道
crawler	クローラー	爬虫
hardware	ハードウェア	硬件
stakeholders	利害関係者 ステークホルダー	利益相关者 干系人
mesh	メッシュ	网格
descriptors	記述子	描述符
lightweight	軽量	轻量
craft	クラフト 手芸	手工 工艺
smooth	滑らか スムーズ 平滑	平滑 流畅
municipality	市町村 自治体	市政 市镇
disruptions	運休 障害 混乱	中断 延误
radians	ラジアン	弧度
bible	聖書	圣经
genesis	創世記	创世纪
decompose	分解	分解
divergence	乖離 ダイバージェンス 発散	背离 散度
starter	スターター 初心者	入门 起步
ioc	侵害指標	威胁指标 攻击指标
uppercase	大文字	大写
airdrop	エアドロップ	空投
mnemonic	ニーモニック 記憶術	助记词
percentile	パーセンタイル 百分位	百分位
typo	誤字 タイポ	错别字 拼写错误
palace	宮殿	宫殿
suspicious	不審 怪しい	可疑
tactics	戦術	战术
ema	指数移動平均	指数移动平均
lifespan	寿命	寿命
fiscal	会計年度 財政	财政 财年
award	受賞 アワード	奖项 获奖
deviation	偏差	偏差
disassemble	逆アセンブル 分解	反汇编 拆解
irreversible	不可逆 元に戻せない	不可逆
creatinine	クレアチニン	肌酐
shortcut	ショートカット	快捷方式 快捷键
reload	再読み込み リロード	重新加载 刷新
consensus	コンセンサス 合意	共识
commission	手数料 委員会	佣金 手续费 委员会
leadership	リーダーシップ 指導力	领导力
subset	部分集合 サブセット	子集
lifetime	生涯 有効期間	生命周期 终身
brightness	明るさ 輝度	亮度
stacktrace	スタックトレース	堆栈跟踪
recompile	再コンパイル	重新编译
chance	確率 チャンス	概率 机会
ungraded	未採点	未评分
unsubmitted	未提出	未提交
clothing	衣服 服装	服装 衣服
traits	特性 特徴	特征 特质
gateway	ゲートウェイ	网关
disambiguate	曖昧さ回避	消歧
reputation	評判 レピュテーション	信誉 声誉
consecutive	連続	连续
rebuild	再構築 リビルド	重建 重新构建
unassigned	未割り当て 担当者なし	未分配
subnet	サブネット	子网
queued	キュー 待機中	排队
rarity	レアリティ 希少性	稀有度
hunting	狩猟 ハンティング	狩猎
snooze	スヌーズ	稍后提醒 暂停提醒
prod	本番環境	生产环境
destroyed	破壊	销毁
tasklist	タスクリスト	任务列表
tone	トーン 口調 音色	语气 语调 音调
favourite	お気に入り	收藏 最喜欢
brain	頭脳 ブレイン	大脑
watchlist	ウォッチリスト 監視リスト	自选股 关注列表
comics	漫画 コミック	漫画 连环画
silence	無音 沈黙	静音 沉默
mfa	多要素認証 二段階認証	多因素认证 双重认证
braille	点字	盲文
addon	アドオン	插件 扩展
icu	集中治療室	重症监护
gist	要点	要点
contributors	貢献者 コントリビューター	贡献者
teach	教える 教え 指導	教学 教授
ban	禁止 BAN	封禁 禁止
esports	eスポーツ	电竞 电子竞技
preprints	プレプリント	预印本
snp	一塩基多型	单核苷酸多态性
conclusions	結論	结论
sponsor	スポンサー 協賛	赞助 赞助商
regulation	規制 規則	法规 监管
landmark	ランドマーク 名所	地标
gate	搭乗口 改札	登机口 闸门
waypoints	経由地 ウェイポイント	途经点 航点
healthcare	医療 ヘルスケア	医疗 医疗保健
lunar	旧暦 月齢	农历 月球 阴历
independent	独立	独立
velocity	速度	速度
reduction	削減 減少	减少 降低
correlation	相関	相关性 相关
ppt	パワーポイント プレゼン資料 スライド資料	幻灯片 演示文稿
broken	壊れた リンク切れ	损坏 失效
assert	アサート 検証	断言
debt	負債 借金	债务 负债
acknowledge	確認 承認	确认
pointer	ポインタ	指针
border	枠線 ボーダー 国境	边框 边界 边境
blur	ぼかし	模糊
shiny	キラキラ 光沢	闪亮 闪光
flip	反転 裏返す	翻转
rainbow	虹色 レインボー	彩虹
ripple	波紋 リップル	波纹 涟漪
unprotect	保護解除	取消保护
shuffle	シャッフル	洗牌 随机排序
tail	末尾	尾部 末尾
viewable	閲覧可能	可查看
underscores	アンダースコア	下划线
black	黒色 ブラック	黑色
tld	トップレベルドメイン	顶级域名
tlds	トップレベルドメイン	顶级域名
beat	ビート	节拍
clubs	クラブ	俱乐部
livestream	ライブ配信 生配信	直播
football	サッカー フットボール	足球 橄榄球
men	男性	男性 男子
forget	忘れる 忘れ	忘记
watermark	透かし ウォーターマーク	水印
police	警察	警察
dad	父親 親父ギャグ	爸爸 冷笑话
expertise	専門知識	专业知识
matter	案件	案件 事项
repair	修理 修復	修复 维修
east	東部 東側	东部 东方
baths	浴室 バスルーム	浴室 卫生间
half	半分	一半
beds	寝室 ベッド	卧室 床位
coronavirus	コロナ 新型コロナ	新冠 冠状病毒
inappropriate	不適切	不当 不适当
governor	知事	州长 省长
truck	トラック	卡车 货车
reachable	到達可能	可达
kilometers	キロメートル キロ	公里 千米
astronomy	天文 天文学	天文 天文学
moon	月齢 ムーン 月相	月亮 月球 月相
newsletter	ニュースレター メルマガ	新闻通讯 简报 邮件订阅
midnight	深夜 真夜中	午夜 半夜
jump	ジャンプ	跳转 跳跃
yellow	黄色 イエロー	黄色
dutch	オランダ語	荷兰语
french	フランス語	法语
maturity	満期 成熟度	到期 成熟度
cumulative	累計 累積	累计 累积
panel	パネル	面板
yuan	人民元	人民币
legend	凡例 伝説 レジェンド	图例 传说
son	息子	儿子
synopsis	あらすじ 概要	简介 梗概
alt	代替テキスト	替代文本
agency	機関 代理店 エージェンシー	机构 代理
crew	クルー 乗組員	船员 剧组 机组
isolated	隔離	隔离 孤立
oil	石油 原油 オイル	石油 原油
classic	クラシック 古典	经典
battle	バトル 戦闘 対戦	战斗 对战
constant	定数	常数 常量
ocean	海洋	海洋
quantitative	定量 クオンツ	量化 定量
demand	需要	需求
bedrooms	寝室	卧室
kanji	漢字	汉字
radical	部首	部首
vat	付加価値税 消費税	增值税
compliant	準拠	合规 符合
nav	基準価額 ナビゲーション	净值 导航
centimeters	センチ センチメートル	厘米
sun	太陽	太阳
mars	火星	火星
cocktail	カクテル	鸡尾酒
million	百万	百万
diet	ダイエット 食事	饮食 减肥
eliminates	削除 除去	消除
wave	波形 ウェーブ	波浪 波形
infant	乳児 幼児	婴儿
acceleration	加速度 加速	加速度
italic	斜体 イタリック	斜体
judgments	判決	判决
competing	競合	竞争
paris	パリ	巴黎
rain	降雨 雨量	降雨 下雨
wear	服装	穿搭 穿衣
unblock	ブロック解除	解除屏蔽 解封
traverse	走査 巡回	遍历
arithmetic	算術 計算	算术 运算
median	中央値	中位数
ceil	切り上げ	向上取整
podcast	ポッドキャスト	播客
serverless	サーバーレス	无服务器
retail	小売 リテール	零售
interpolate	補間	插值
thorough	徹底	彻底 全面
cfo	最高財務責任者	首席财务官
decomposition	分解	分解
inverse	逆数 逆行列 逆関数	倒数 逆矩阵 反函数
sqrt	平方根	平方根
sin	正弦 サイン	正弦
mineral	鉱物 ミネラル	矿物
parallelly	並列	并行
resilience	回復力 レジリエンス	韧性 弹性
gift	ギフト 贈り物 プレゼント	礼物 礼品
minified	圧縮 ミニファイ	压缩
serialized	シリアライズ 直列化	序列化
bird	野鳥 バード	鸟类
ultraviolet	紫外線	紫外线
incorrect	誤り 不正確	错误 不正确
reproduce	再現	复现 重现
sleep	睡眠 スリープ	睡眠
lose	失う 負け	失去 输掉
notice	お知らせ 通知 告知	通知 公告
sexual	性的	色情 性暗示
guard	ガード 警備	防护 守卫
adoption	採用 導入 養子縁組	采用 领养
conform	準拠 適合	符合
typeahead	入力補完	自动补全
reconnect	再接続	重新连接 重连
dominant	支配的 主要	主导 主要
stochastic	ストキャスティクス 確率的	随机指标 随机
lemonade	レモネード	柠檬水
pegged	ペッグ	挂钩 锚定
bubbles	バブル 泡立ち	气泡 泡泡
socket	ソケット	套接字
systolic	収縮期 最高血圧	收缩压
blood	血液	血液
amendment	修正 改正	修正案 修订
surviving	生存	幸存
debugger	デバッガ	调试器
prd	製品要求仕様書	产品需求文档
untrash	ゴミ箱から戻す 復元	从回收站恢复
consent	同意	同意
temporarily	一時的	暂时 临时
treasury	国債 財務省	国债 国库
issuance	発行	发行
held	保有	持有
aftermarket	時間外取引 アフターマーケット	盘后
kitchen	キッチン 台所	厨房
earliest	最古 最も早い	最早
rare	珍しい レア	稀有 罕见
dark	ダーク 暗い	暗色 深色 黑暗
roughness	粗さ 粗度	粗糙度
commune	市町村	公社 市镇
lap	ラップタイム 周回	圈速
unfollow	フォロー解除	取消关注
mute	ミュート 消音	静音 屏蔽
unmute	ミュート解除	取消静音
rebase	リベース	变基
badges	バッジ	徽章
foundry	鋳造 ファウンドリ	铸造厂 代工
spawn	スポーン 生成	生成 刷怪
coursework	課題	课程作业
macros	マクロ	宏命令 宏量营养素
shutdown	シャットダウン 停止	关机 关闭
dry	乾燥 ドライ	干燥
searchable	検索可能	可搜索
excerpt	抜粋	摘录 节选
arms	武器	武器
span	期間 スパン	跨度
reposts	リポスト	转发 转帖
coords	座標	坐标
buffer	バッファ	缓冲区
wash	洗濯 洗車	洗涤 洗车
scrum	スクラム	敏捷开发
kanban	カンバン 看板	看板
committee	委員会	委员会
congressional	議会	国会 议会
beacon	ビーコン	信标
uncle	叔父 おじさん	叔叔 舅舅
asteroid	小惑星	小行星
mastery	習熟 熟練度	熟练度 掌握
bounces	バウンス 不達	退信 跳出
vessel	船舶	船舶
allergy	アレルギー	过敏
pageviews	ページビュー 閲覧数	浏览量 页面浏览量
introspection	イントロスペクション	内省
interview	面接 インタビュー	面试 采访
breaches	情報漏洩 侵害	数据泄露 泄露
unfavourite	お気に入り解除	取消收藏
exploratory	探索的	探索性
subgraph	サブグラフ	子图
faceswap	顔交換 顔入れ替え	换脸
wantlist	欲しいものリスト	心愿单
ruleset	ルールセット	规则集
selfemployed	自営業	个体户 自雇
jpy	日本円	日元
retrospective	振り返り レトロスペクティブ	回顾
booster	ブースター 追加接種	加强针
organisation	組織	组织
reorder	並べ替え 再注文	重新排序 补货
conceptual	概念的	概念
biomedical	生物医学	生物医学
melanoma	黒色腫 メラノーマ	黑色素瘤
pure	純粋	纯粹
overlooked	見落とし	忽视
consequences	結果 影響	后果
cancer	がん 悪性腫瘍	癌症 肿瘤
proximity	近接 近く	附近 邻近
geometry	幾何 ジオメトリ	几何
pedestrian	歩行者 徒歩	行人 步行
elementary	小学校 初等	小学 初级
lifestyle	ライフスタイル 生活習慣	生活方式
workplace	職場	工作场所 职场
garage	ガレージ 車庫	车库
cleaner	クリーナー 掃除	清理 清洁
delimiter	区切り文字	分隔符
eyes	眼球 目元	眼睛
funnel	ファネル 漏斗	漏斗
intersections	交差点 交差	交叉口 路口 交集
arrows	矢印	箭头
lens	レンズ	镜头 透镜
particles	パーティクル 粒子	粒子
endnote	文末脚注	尾注
hyphens	ハイフン	连字符
cut	カット 切り取り	剪切 裁剪
shorter	短縮 短く	缩短
stuck	行き詰まり	卡住
survey	アンケート 調査	问卷 调查
biggest	最大	最大
concert	コンサート	演唱会 音乐会
festivals	フェスティバル 祭り フェス	节日 音乐节
startup	スタートアップ 起動	创业公司 初创 启动
habitat	生息地	栖息地
outlets	店舗 アウトレット	门店 网点
punctuation	句読点	标点 标点符号
wheel	ホイール 車輪 ルーレット	轮盘 车轮
resync	再同期	重新同步
hybrid	ハイブリッド	混合 混动
disc	ディスク	光盘 唱片
arrange	配置 並べる 整列	排列 安排
century	世紀	世纪
alliance	同盟 アライアンス	联盟
sqft	平方フィート	平方英尺
uganda	ウガンダ	乌干达
brewery	醸造所 ブルワリー	啤酒厂 酿酒厂
warrants	ワラント	权证
cairo	カイロ	开罗
motorcycle	バイク オートバイ	摩托车
shortest	最短	最短
god	神様	上帝 神明
indie	インディー	独立游戏 独立
inplay	ライブベッティング 試合中	滚球
prematch	試合前	赛前
outliers	外れ値	异常值 离群值
orange	オレンジ	橙色 橘子
stamp	スタンプ 切手	邮票 印章
welcome	ウェルカム 歓迎	欢迎
homeless	ホームレス	无家可归
crime	犯罪	犯罪
accidents	事故	事故
rent	家賃 賃貸 レンタル	租金 租赁 出租
portuguese	ポルトガル語	葡萄牙语
german	ドイツ語	德语
pln	ポーランドズロチ	波兰兹罗提
lyrics	歌詞	歌词
tvshow	テレビ番組	电视节目 电视剧
moldavian	モルドバ語	摩尔多瓦语
faqs	よくある質問	常见问题
canadian	カナダ	加拿大
issuer	発行者 発行体	发行人 发卡行
birth	出生 誕生	出生
death	死亡	死亡
profanity	不適切な言葉 悪口	脏话 粗话
monetary	金融 通貨	货币
waste	廃棄物 ごみ	垃圾 废物
abuse	不正利用 悪用 虐待	滥用 虐待
complaints	苦情 クレーム	投诉
propagation	伝搬 伝播	传播
lite	軽量版	轻量版
mma	総合格闘技	综合格斗
gameplays	ゲームプレイ	游戏玩法
turnover	売買代金 離職率 回転率	成交额 换手率 营业额
roe	自己資本利益率	净资产收益率
chest	胸部 宝箱	胸部 宝箱
nowcast	ナウキャスト 短時間予報	临近预报
town	タウン 町村	城镇 小镇
senegal	セネガル	塞内加尔
daylight	日照 日中	日照 白天 夏令时
microseconds	マイクロ秒	微秒
boat	ボート	船只 小船
roster	名簿 ロースター	名单 阵容
stopwords	ストップワード	停用词
funny	面白い おもしろ	搞笑 有趣
gst	物品サービス税	商品及服务税
homepage	ホームページ	主页 首页
callback	コールバック	回调
hate	ヘイト 憎悪	仇恨
spatial	空間	空间
dietary	食事 食生活	饮食
calories	カロリー	卡路里 热量
airlines	航空会社 エアライン	航空公司
giveaways	プレゼント企画	抽奖 赠品
lotto	ロト6 宝くじ	乐透 彩票
america	アメリカ 米国	美国
healthcheck	ヘルスチェック 死活監視	健康检查
dimensional	次元	维度
inline	インライン	内联
scanner	スキャナー	扫描器
wayback	ウェイバックマシン 魚拓	网页快照 历史快照
horror	ホラー	恐怖
thickness	厚さ 太さ	厚度 粗细
reactive	リアクティブ	响应式
rational	合理的	理性
certainty	確実性 確信度	确定性
metacognitive	メタ認知	元认知
gym	ジム	健身房
prefab	プレハブ	预制体
padding	余白 パディング	内边距 填充
graphic	グラフィック 図版	图形
disappear	消える 消え	消失
tafsir	タフシール	经注 古兰经注释
motion	モーション 動き	动作 运动
venv	仮想環境	虚拟环境
ide	統合開発環境	集成开发环境
cybersecurity	サイバーセキュリティ	网络安全
paywall	ペイウォール 有料記事	付费墙
modalities	モダリティ	模态
cheapest	最安 最安値	最便宜 最低价
assay	アッセイ 分析	检测 测定
binding	結合 バインディング	结合 绑定
parser	パーサー 構文解析	解析器
contradictions	矛盾	矛盾
stdout	標準出力	标准输出
stderr	標準エラー	标准错误
surname	名字 苗字	姓氏
implications	影響 含意	影响 含义
delisting	上場廃止	退市
destruction	破壊	销毁 破坏
spreadsheet	スプレッドシート 表計算	电子表格 表格
inaccessible	アクセス不可	无法访问
robust	堅牢	稳健 鲁棒
loans	ローン 融資	贷款
reserve	予約 準備金	预订 储备
cos	余弦 コサイン	余弦
cosine	コサイン 余弦	余弦
tan	正接 タンジェント	正切
divisor	約数 除数	约数 除数
incompatible	非互換 互換性がない	不兼容
invert	反転	反转 反相
eigenvalues	固有値	特征值
triangular	三角	三角形 三角
wallpaper	壁紙	壁纸
proven	実証済み	经过验证
gauge	ゲージ メーター	仪表盘 仪表
corner	コーナー 隅っこ	角落 拐角
fold	折りたたみ	折叠
sing	歌う 歌い	唱歌
hypotheses	仮説	假设 假说
drink	飲み物 ドリンク	饮料 饮品
mammal	哺乳類	哺乳动物
medicine	医学 医薬品	医学 药物 药品
asylum	亡命 難民申請	庇护 政治庇护
condensed	圧縮 要約	精简 压缩
uncertain	不確実	不确定
economy	経済	经济
faucet	フォーセット 蛇口	水龙头
career	キャリア 経歴	职业 生涯
overlay	オーバーレイ 重ね合わせ	叠加 覆盖层
attendance	出席 出勤 観客動員	出勤 考勤 上座率
holidays	祝日 休日	节假日 假期
breakpoint	ブレークポイント	断点
sso	シングルサインオン	单点登录
footers	フッター	页脚
mercator	メルカトル	墨卡托
aim	目的 狙い	目标
miles	マイル数 英マイル	英里
buses	路線バス バス停	公交 公交车
rollback	ロールバック	回滚
rollup	集計 ロールアップ	汇总
espresso	エスプレッソ	浓缩咖啡
retirement	退職 引退 老後	退休
quantum	量子	量子
gross	総額 粗利	总额 毛利
evolutionary	進化的	进化
crossover	クロスオーバー 交差	交叉
clock	時計 クロック	时钟
glomerular	糸球体	肾小球
filtration	濾過 ろ過	滤过 过滤
albumin	アルブミン	白蛋白
therapy	療法 治療 セラピー	疗法 治疗
dose	用量 投与量	剂量
survivors	生存者	幸存者
shareable	共有可能	可分享
neighbors	近隣 隣人	邻居 邻近
outlook	見通し 予測	前景 展望
workforce	労働力 人員	劳动力
economic	経済 経済的	经济
agricultural	農業	农业
crowdfunding	クラウドファンディング	众筹
decreasing	減少 降順	递减 下降
nasdaq	ナスダック	纳斯达克
beneficial	有益	有益
tilt	傾き チルト	倾斜
unscheduled	予定外 臨時	计划外 临时
hexadecimal	16進数 十六進	十六进制
circuit	回路 サーキット	电路 赛道
planner	プランナー 計画	规划 计划表
millimeters	ミリメートル	毫米
hong	香港	香港
listen	聴く 聞く リスニング	收听 听歌
enemy	エネミー 敵キャラ	敌人
satellite	衛星	卫星
coffee	コーヒー	咖啡
hallucinating	ハルシネーション 幻覚	幻觉
pcb	基板 プリント基板	电路板
outbound	アウトバウンド 発信	出站 外呼
crop	切り抜き トリミング 作物	裁剪 作物
manifest	マニフェスト	清单
ancestors	祖先 先祖	祖先
hairstyle	髪型 ヘアスタイル	发型
humor	ユーモア	幽默
feasibility	実現可能性	可行性
unfinished	未完了 未完成	未完成
tutorials	チュートリアル 入門	教程
subfolders	サブフォルダ	子文件夹
sortable	並べ替え可能	可排序
tuesday	火曜日 火曜	星期二 周二
fantasy	ファンタジー	奇幻 梦幻
blocker	広告ブロック ブロッカー	拦截 屏蔽
ats	採用管理システム	招聘管理系统
sniper	スナイパー	狙击
beach	ビーチ 海岸 浜辺	海滩
shipment	出荷 発送 配送	发货 货运
audiobook	オーディオブック	有声书
concrete	コンクリート 具体的	混凝土 具体
invocation	呼び出し	调用
unlisted	限定公開 非公開	不公开 未上市
unlink	リンク解除	取消链接 解除关联
uninstall	アンインストール	卸载
merchant	加盟店 販売者	商户 商家
unapprove	承認取り消し	取消批准
lifelog	ライフログ	生活日志
cpi	消費者物価指数	消费者价格指数
deduplicate	重複排除 重複削除	去重
purge	完全削除 消去	清除
polychromatic	多色	多色
rover	ローバー 探査車	火星车 漫游车
chronological	時系列 年代順	时间顺序 按时间
allowlist	許可リスト ホワイトリスト	白名单
madrid	マドリード	马德里
censor	検閲 伏せ字	审查 屏蔽
seoul	ソウル	首尔
tourist	観光客 観光	游客 旅游
iceberg	氷山	冰山
standups	朝会 スタンドアップ	站会
minus	マイナス 引き算	减去 负数
outdated	古い 期限切れ	过时
reconciliation	照合 消込	对账 核对
slippage	スリッページ	滑点
unusual	異常	异常
stale	古い 陳腐化	过期 陈旧
lifecycle	ライフサイクル	生命周期
encounters	出現 遭遇	遭遇
relay	リレー 中継	中继 转发
counterparties	取引先	交易对手
dew	露点	露点
snow	積雪 降雪	降雪 下雪
dressing	服装指数	穿衣指数
sightseeing	観光	观光 旅游
pollen	花粉	花粉
cold	風邪 寒い 寒冷	感冒 寒冷
sunglasses	サングラス	太阳镜 墨镜
makeup	化粧 メイク	化妆
sunscreen	日焼け止め	防晒
dca	ドルコスト平均法 積立	定投
unauthorized	不正 無許可	未授权 未经授权
malicious	悪意	恶意
effort	工数 労力	工作量 努力
federation	連携 連盟	联邦 联合
dining	食事 外食	用餐 餐饮
spiral	螺旋 スパイラル	螺旋
thematic	テーマ別	主题
carousel	カルーセル	轮播
swipeable	スワイプ	滑动
vod	ビデオオンデマンド 見逃し配信	点播 视频点播
dispute	異議 紛争 チャージバック	争议 纠纷
workplan	作業計画	工作计划
morse	モールス	摩尔斯
teammate	チームメイト 同僚	队友 同事
unmarking	マーク解除	取消标记
outstanding	未払い 未処理	未结 未付
foundations	基礎 財団	基础 基金会
renewal	更新 継続	续订 续费 续期
playstyle	プレイスタイル	玩法 打法
conservation	保全 保護	保护 保育
tissue	組織	组织
maneuvers	機動	机动
commute	通勤	通勤
automobile	自動車	汽车
bike	自転車 バイク	自行车 单车
foot	徒歩	步行
relocation	移転 引っ越し	搬迁 迁移
splitter	分割	拆分器
formatter	フォーマッタ 整形	格式化
instantaneous	瞬時	瞬时
boxplot	箱ひげ図	箱线图
dual	デュアル 二重	双重
occupancy	稼働率 占有率	入住率 占用率
supermarkets	スーパー スーパーマーケット	超市
multidimensional	多次元	多维
unadjusted	未調整	未复权 未调整
elegant	エレガント 上品	优雅
warm	暖かい 暖色	温暖
hyperlinks	ハイパーリンク	超链接
straight	直線	直线
curved	曲線	曲线 弯曲
unstaged	未ステージ	未暂存
marquee	マーキー	跑马灯
globe	地球儀	地球仪
orbiting	軌道 周回	轨道 环绕
circular	円形	圆形
mock	モック	模拟
shine	輝き	光泽 闪耀
meteors	流星	流星
confetti	紙吹雪	彩纸 五彩纸屑
cool	かっこいい	炫酷
fade	フェード	淡入淡出 渐隐
aurora	オーロラ	极光
sparkles	キラキラ	闪光 闪烁
morphing	モーフィング 変形	变形
shimmer	きらめき シマー	闪烁 微光
pulsating	脈動	脉动
warp	ワープ 歪み	扭曲
flickering	ちらつき 点滅	闪烁
standalone	スタンドアロン 単体	独立
shanghai	上海	上海
surgical	外科 手術	外科 手术
suffix	接尾辞 サフィックス	后缀
likelihood	尤度 可能性	可能性 似然
chessboard	チェス盤	棋盘
algebraic	代数	代数
bishop	ビショップ	
knight	騎士	骑士
king	国王	国王
chromatic	半音階 色彩	色度 半音
octaves	オクターブ	八度
amplitude	振幅	振幅
spectral	スペクトル	频谱 光谱
rhythmic	リズム	节奏
taxonomy	分類 分類学 タクソノミー	分类 分类学
referee	審判 レフェリー	裁判
kick	キック	踢出
chatroom	チャットルーム	聊天室
fed	連邦準備制度 FRB	美联储
scorecard	スコアカード	记分卡
famous	有名	著名 有名
vaccination	予防接種 ワクチン接種	疫苗接种
charter	チャーター 憲章	包机 章程
wealth	資産 富裕	财富
negotiate	交渉	谈判 协商
oversee	監督	监督
paperwork	書類	文书 文件
supervise	監督	监督
commercial	商業 商用	商业 商用
ranch	牧場	牧场
winery	ワイナリー	酒庄
slogan	スローガン キャッチコピー	口号 标语
retweets	リツイート	转推
condominium	マンション 分譲マンション	公寓
townhouse	タウンハウス	联排别墅
egypt	エジプト	埃及
huge	巨大	巨大
promo	プロモーション 販促	促销 推广
guaranteed	保証	保证
highways	高速道路	高速公路
isochrone	等時線 到達圏	等时线
contours	等高線 輪郭	等高线 轮廓
polygons	多角形 ポリゴン	多边形
ring	環状	环形
roman	ローマ数字	罗马数字
expiry	有効期限 期限切れ	到期 过期
impossible	不可能	不可能
fillable	入力可能	可填写
streetview	ストリートビュー	街景
india	インド	印度
fountain	噴水	喷泉
russian	ロシア語	俄语
italian	イタリア語 イタリア	意大利语
hindi	ヒンディー語	印地语
cinema	映画館	电影院
roulette	ルーレット	轮盘
december	12月 十二月	十二月 12月
boxscore	ボックススコア	技术统计
gbp	英ポンド	英镑
chf	スイスフラン	瑞士法郎
berlin	ベルリン	柏林
domino	ドミノ	多米诺
debit	デビット 借方	借记 借方
bypasses	回避 バイパス	绕过
tomato	トマト	番茄 西红柿
tts	音声合成 読み上げ	语音合成 文字转语音
pfp	プロフィール画像	头像
prime	素数	素数 质数
inn	旅館	旅馆 客栈
solat	礼拝	礼拜
mainland	本土	大陆 内地
symptoms	症状	症状
ciphertext	暗号文	密文
fighter	戦闘機 ファイター	战斗机 格斗
african	アフリカ	非洲
cube	立方体 キューブ	立方体 魔方
mirrors	ミラー	镜像
trump	トランプ	特朗普
biden	バイデン	拜登
gis	地理情報システム	地理信息系统
sku	商品コード 品番	商品编码 货号
weapons	武器	武器
mountains	山岳 山脈	山脉 山峰
lakes	湖沼	湖泊
condo	マンション	公寓
boroughs	行政区	行政区
jersey	ジャージー ユニフォーム	球衣
dogecoin	ドージコイン	狗狗币
donation	寄付 募金	捐赠 捐款
powerplant	発電所	发电厂
recurrence	繰り返し 再発	重复 复发
korean	韓国語 韓国	韩语 韩国
lng	液化天然ガス	液化天然气
chip	チップ 半導体	芯片
obesity	肥満	肥胖
asian	アジア	亚洲
horoscope	星占い 占星術 ホロスコープ	星座运势 星座
pregnancy	妊娠	怀孕 妊娠
gestational	妊娠週数	孕周 妊娠
fort	要塞	堡垒
divesites	ダイビングスポット	潜水点
tabular	表形式	表格
soil	土壌	土壤
chatbot	チャットボット	聊天机器人
indoor	屋内 室内	室内
illumination	照明 照度	照明 光照
ironic	皮肉	讽刺 反讽
cake	ケーキ	蛋糕
carbon	炭素 カーボン 二酸化炭素	碳排放 碳足迹
registrar	レジストラ	注册商
freefloat	浮動株	自由流通
ecommerce	通販 ネット通販 ECサイト	电商 电子商务
winner	勝者 当選者	获胜者 赢家 中奖
greek	ギリシャ語 ギリシャ	希腊语 希腊
rising	上昇 急上昇	上升 飙升
seats	座席 議席	座位 席位
poem	詩歌 ポエム	诗歌
baby	赤ちゃん ベビー	婴儿 宝宝
payout	支払い 配当	支付 赔付 派息
accumulation	蓄積 積立	积累 累积
refunded	返金済み	已退款
mexican	メキシコ	墨西哥
nutrients	栄養素 栄養	营养素 营养
chronicle	年代記 クロニクル	编年史
swedish	スウェーデン語	瑞典语
fat	脂肪	脂肪
liters	リットル	公升
burned	消費カロリー 燃焼	燃烧 消耗
flaws	欠陥	缺陷
xss	クロスサイトスクリプティング	跨站脚本
taboo	タブー 禁忌	禁忌
forbidden	禁止	禁止 禁用
loot	戦利品 ドロップ	战利品 掉落
matchmaking	マッチング	匹配
shortcode	ショートコード	短代码
billion	十億	十亿
playable	プレイ可能	可玩
neonate	新生児	新生儿
adolescent	思春期 青少年	青少年
elderly	高齢者	老年人
turkish	トルコ語 トルコ	土耳其语
seamless	シームレス	无缝
datacenter	データセンター	数据中心
redeemed	引き換え済み 交換	兑换 已兑换
bottlenecks	ボトルネック	瓶颈
arabic	アラビア語	阿拉伯语
shakespeare	シェイクスピア	莎士比亚
indirect	間接	间接
bold	太字 ボールド	粗体 加粗
principles	原則 原理	原则 原理
rubber	ラバーダック	小黄鸭 橡皮鸭
pareto	パレート	帕累托
occam	オッカム	奥卡姆
razor	剃刀 カミソリ	剃刀
modular	モジュール式	模块化
scalability	スケーラビリティ 拡張性	可扩展性
paradigms	パラダイム	范式
imperative	命令型	命令式
conquer	征服 分割統治	征服 分治
swimming	水泳 スイミング	游泳
heating	暖房 加熱	供暖 加热
coastal	沿岸	沿海 海岸
winter	冬季 ウィンター	冬季 冬天
storm	暴風 台風 嵐の	风暴 暴风雨
builder	ビルダー 作成ツール	构建器 生成器
bought	購入	购买
ytd	年初来	年初至今
surah	スーラ	苏拉
reciters	朗読者	诵读者
cannon	大砲	大炮
loops	ループ	循环
beginner	初心者 入門	初学者 入门 新手
accredited	認定	认证 认可
readonly	読み取り専用	只读
molecule	分子	分子
canonical	正規	规范
weekday	平日 曜日	工作日 星期
june	6月 六月	六月 6月
swipe	スワイプ	滑动
wisdom	知恵	智慧
contemplative	瞑想	冥想
gradual	段階的 徐々	逐步 渐进
inherent	固有	固有
backtesting	バックテスト	回测
gesture	ジェスチャー	手势
rechargeable	充電式	可充电
retryable	再試行可能	可重试
exhaust	排気 使い果たす	耗尽 尾气
classifies	分類	分类
emitted	排出	排放
factorial	階乗	阶乘
sine	サイン 正弦	正弦
wordcloud	ワードクラウド	词云
singular	単数 特異	单数 奇异
transpose	転置 移調	转置 移调
orthogonal	直交	正交
purity	純度	纯度
geologic	地質	地质
flowchart	フローチャート	流程图
grammar	文法	语法
biological	生物学的 生物	生物
probes	プローブ	探针
chromosome	染色体	染色体
copywriting	コピーライティング	文案
archetypes	アーキタイプ 元型	原型
problematic	問題のある	有问题
habits	習慣	习惯
monte	モンテカルロ	蒙特卡洛
diamonds	ダイヤモンド	钻石
opponent	対戦相手	对手
debate	討論 ディベート	辩论
argue	議論 反論	争论 辩论
inconclusive	結論が出ない	无定论 不确定
packet	パケット	数据包
prevalence	有病率 普及率	患病率 流行率
syllable	音節	音节
pronouncing	発音	发音
poetry	詩歌 ポエム	诗歌
linguistic	言語学	语言学
robots	ロボット	机器人
summation	総和 合計	求和
snack	お菓子 スナック	零食 小吃
demote	降格	降级
seismic	地震	地震
regenerate	再生成	重新生成
pirate	海賊	海盗
summarise	要約	总结 摘要
unregister	登録解除	注销
ride	配車 乗車	打车 骑行
exponent	指数 べき乗	指数 幂次
unsafe	安全でない 危険	不安全
ethical	倫理的 倫理	伦理 道德
proposition	命題 提案	命题
exemption	免除 免税	豁免 免税
clarity	明瞭	清晰度
smileys	顔文字 スマイリー	笑脸 表情
marine	海洋	海洋 海事
vegetable	野菜	蔬菜
sweet	甘い スイーツ	甜品 甜食
heritage	遺産 世界遺産	遗产 文化遗产
viewport	ビューポート 表示領域	视口
downward	下向き	向下
refugees	難民	难民
seekers	求職者	求职者
syrians	シリア	叙利亚
france	フランス	法国
speculation	投機 憶測	投机 猜测
reality	現実 リアリティ	现实
wildlife	野生動物	野生动物
fashion	ファッション	时尚 服饰
ner	固有表現抽出	命名实体识别
isp	プロバイダ	运营商
spider	スパイダー クモ	蜘蛛 爬虫
lunch	昼食 ランチ	午餐 午饭
pace	ペース配分 速度	配速 节奏
away	アウェー	客场
barrels	バレル	桶装
overlaid	重ね合わせ	叠加
stadium	スタジアム 競技場	体育场 球场
dataframe	データフレーム	数据框
caveats	注意点	注意事项
july	7月 七月	七月 7月
march	3月 三月 行進	三月 3月
imitate	真似 模倣	模仿
faithful	忠実	忠实
angels	天使	天使
law	法律	法律
eve	前夜	前夕
hypertension	高血圧	高血压
lung	肺がん 肺癌	肺部 肺癌
carcinoma	癌腫	癌症
nsclc	非小細胞肺がん	非小细胞肺癌
cisplatin	シスプラチン	顺铂
breast	乳房 乳がん	乳腺 乳腺癌
meaningful	有意義	有意义
jitter	ジッター 揺らぎ	抖动
wifi	無線LAN ワイファイ	无线网
forgotten	忘れた	忘记
redundant	冗長	冗余
cadence	頻度 ケイデンス	节奏 频率
plural	複数形	复数
spread	スプレッド 拡散	价差 传播
sideboard	サイドボード	备牌
battlefield	戦場	战场
difficult	難しい 困難	困难
cigarettes	たばこ 喫煙	香烟 吸烟
forest	森林	森林
pretty	整形 見やすく	美化
dedicated	専用	专用
third	第三	第三
diastolic	拡張期 最低血圧	舒张压
arterial	動脈	动脉
vascular	血管	血管
diabetes	糖尿病	糖尿病
cardiovascular	心血管	心血管
cholesterol	コレステロール	胆固醇
hdl	善玉コレステロール	高密度脂蛋白
smoker	喫煙者	吸烟者
pulmonary	肺疾患	肺部 肺病
pain	痛み 疼痛	疼痛
diagnosis	診断	诊断
surgery	手術 外科	手术 外科
insulin	インスリン	胰岛素
bilirubin	ビリルビン	胆红素
milligram	ミリグラム	毫克
sodium	ナトリウム 塩分	钠含量 盐分
glucose	血糖 ブドウ糖	血糖 葡萄糖
verbatim	逐語 そのまま	逐字 原文
rerun	再実行	重新运行
mutant	変異体 ミュータント	突变体
mercenary	傭兵	雇佣兵
incentives	インセンティブ 奨励	激励 奖励
perp	無期限先物	永续合约
aliases	エイリアス 別名	别名
decentralised	分散型	去中心化
wrong	間違い	错误
bugfix	バグ修正	修复缺陷 bug修复
tradable	取引可能	可交易
firm	企業 会社	公司 企业
controversies	論争 不祥事	争议
unemployment	失業 失業率	失业 失业率
levered	レバレッジ	杠杆
worth	価値	价值 身价
overbought	買われすぎ	超买
oversold	売られすぎ	超卖
gold	金価格 ゴールド	黄金 金价
impressions	インプレッション 表示回数	展示量 曝光
garden	庭園 ガーデン 家庭菜園	花园 园艺
unfamiliar	不慣れ	陌生
asr	音声認識	语音识别
topology	トポロジー	拓扑
multilingual	多言語	多语言
quit	終了 辞める	退出
opaque	不透明	不透明
translucent	半透明	半透明
tap	タップ	点击 轻触
unpin	ピン留め解除	取消置顶
mortise	ほぞ穴	榫眼
tenon	ほぞ	榫头
dovetail	蟻継ぎ	燕尾榫
uncommitted	未コミット	未提交
stash	退避 スタッシュ	暂存 贮藏
interrupted	中断	中断
furniture	家具	家具
bathrooms	浴室 バスルーム	浴室 卫生间
sanitized	サニタイズ 無害化	清洗 净化
checkin	チェックイン	签到 入住
impersonate	なりすまし	冒充 模拟
prune	剪定 削除	修剪 清理
zoo	動物園	动物园
lecture	講義 レクチャー	讲座 讲课
instructor	講師 インストラクター	讲师 教练
bom	部品表	物料清单
netlist	ネットリスト	网表
species	生物種	物种
starships	宇宙船	星舰
warehouse	倉庫	仓库
guild	ギルド	公会
concatenation	連結	拼接 连接
bbox	バウンディングボックス	边界框
undelegate	委任解除	取消委托
insufficient	不足	不足
violence	暴力	暴力
illegal	違法	违法 非法
harmful	有害	有害
stereotypes	ステレオタイプ 固定観念	刻板印象
cyberbullying	ネットいじめ	网络霸凌
misinformation	誤情報 デマ	虚假信息 谣言
extremist	過激派	极端主义
violates	違反	违反
proves	証明	证明
clauses	条項	条款
comet	彗星	彗星
slideshow	スライドショー	幻灯片
dragon	ドラゴン	巨龙
scimitar	シミター	弯刀
defence	防御	防御
rundown	概要 まとめ	概要 汇总
sunday	日曜日 日曜	星期日 周日
saturday	土曜日 土曜	星期六 周六
homework	宿題	作业 家庭作业
videoblogging	ブイログ 動画ブログ	视频博客
howto	ハウツー やり方	教程 怎么做
comedy	コメディ お笑い	喜剧
nonprofits	非営利団体 NPO	非营利组织
adventure	アドベンチャー 冒険	冒险
documentary	ドキュメンタリー	纪录片
drama	ドラマ	电视剧 剧情
sci	SF 空想科学	科幻
thriller	スリラー	惊悚
hazards	危険 災害 ハザード	灾害 危险
campgrounds	キャンプ場	露营地
unambiguous	明確	明确
intricate	複雑	复杂
onboarding	オンボーディング 導入	入职 新手引导
excessive	過剰	过度
virus	ウイルス	病毒
emphasis	強調	强调
unordered	順不同 箇条書き	无序
affinity	親和性 アフィニティ	亲和性
commerce	商取引 コマース	商务 电商
detach	切り離す デタッチ	分离
density	密度	密度
ransomware	ランサムウェア	勒索软件
router	ルーター	路由器
expansion	拡張 展開	扩展 扩张
rescue	救助 レスキュー	救援
kernels	カーネル	内核
nameservers	ネームサーバー	域名服务器
websearch	ウェブ検索	网页搜索 网络搜索
bench	ベンチ	长椅
basket	かご バスケット	购物篮 篮子
resort	リゾート	度假村
summer	夏季 夏休み サマー	夏季 夏天
spa	温泉 スパ	温泉 水疗
spring	春季	春季 春天
interiors	インテリア 内装	室内装饰 内饰
hearing	公聴会 聴覚	听证会 听力
pickup	受け取り 集荷 ピックアップ	自提 取件
unlimited	無制限	无限 不限
colleagues	同僚	同事
urgency	緊急度	紧急程度
alarm	アラーム 目覚まし	闹钟 警报
unset	設定解除	取消设置
pedestal	台座	底座
shake	揺れ シェイク	摇晃 抖动
advisor	アドバイザー 顧問	顾问
catalyst	触媒 カタリスト	催化剂
tower	タワー	塔楼 铁塔
pronouns	代名詞	代词
dead	死亡	死亡 失效
collapsed	折りたたみ 崩壊	折叠 倒塌
dartboard	ダーツ	飞镖盘
masonry	メイソンリー 石積み	瀑布流 砌体
unsorted	未分類 未整列	未排序
parabolic	放物線	抛物线
vortex	渦巻き ボルテックス	涡旋
ichimoku	一目均衡表	一目均衡表
boost	ブースト 強化	提升 加速
chamber	議院	议院
presidential	大統領	总统
petition	請願 署名	请愿
ppi	生産者物価指数	生产者价格指数
pmi	購買担当者景気指数	采购经理人指数
roi	投資収益率 費用対効果	投资回报率
rephrase	言い換え	改写 换个说法
testnet	テストネット	测试网
withdrawn	撤回 出金	撤回 提现
overflow	オーバーフロー 溢れ	溢出
gasoline	ガソリン	汽油
graduated	卒業	毕业
enqueue	キュー追加	入队
exoplanet	太陽系外惑星 系外惑星	系外行星
curiosity	好奇心 キュリオシティ	好奇号 好奇心
mission	ミッション 任務	任务 使命
thinker	思想家	思想家
discoverable	検出可能	可发现
meteorological	気象	气象
multimedia	マルチメディア	多媒体
earlier	以前	之前
reclamation	埋立 再生	回收 开垦
reclaimed	回収	回收
solo	ソロ	单人
damage	ダメージ 損害	伤害 损坏
silicon	シリコン	
bonus	ボーナス 賞与	奖金 奖励
smells	コードの臭い	代码异味
sharp	シャープ 鮮明化	锐化 清晰
reconciling	照合	对账
smallest	最小	最小
imbalances	不均衡	失衡 不平衡
whale	クジラ 大口投資家	鲸鱼 巨鲸
fair	公正 フェア 見本市	公平 展会
posture	姿勢 態勢	姿势 态势
chicken	鶏肉 チキン	鸡肉
sedentary	座りがち	久坐
cardio	有酸素運動	有氧运动
bodyweight	自重 体重	自重 体重
mod	モッド	模组
runner	ランナー	跑者
mana		法力
bounty	懸賞 バウンティ	赏金
outgoing	送信 発信	呼出 外发
anomalies	異常 異常値	异常
crowding	混雑	拥挤
crowdedness	混雑度	拥挤度
london	ロンドン	伦敦
methodology	方法論	方法论
collab	コラボ	合作
exfiltration	情報持ち出し 流出	数据外泄
compromise	侵害 妥協	入侵 妥协
recovery	回復 復旧	恢复 复苏
cto	最高技術責任者	首席技术官
roadmaps	ロードマップ	路线图
partnerships	提携 パートナーシップ	合作 伙伴关系
noise	ノイズ 騒音 雑音	噪音 噪声
organizational	組織	组织
graceful	グレースフル	优雅 平滑
dinein	店内飲食 イートイン	堂食
takeout	テイクアウト 持ち帰り	外带 外卖
reprocess	再処理	重新处理
frontier	フロンティア 最前線	前沿
west	西部 西側	西部 西方
subtree	サブツリー	子树
repaint	再描画 塗り直し	重绘
unconfirmed	未確認	未确认
unchanged	変更なし	未更改
vital	バイタル	生命体征
mother	母親 お母さん	母亲 妈妈
curatorial	キュレーション	策展
exhibition	展覧会 展示会	展览
kelvin	ケルビン	开尔文
reusable	再利用可能	可复用
abort	中止	中止
qualification	資格 予選	资格 预选
honor	名誉	荣誉
elvish	エルフ語	精灵语
obstruction	妨害 障害	阻塞 障碍
rhombus	ひし形	菱形
midprice	仲値	中间价
crude	原油	原油
tryon	試着	试穿
beer	ビール	啤酒
docent	解説員	讲解员
lemon	レモン	柠檬
seen	既読	已读
gem	宝石 ジェム	宝石
apr	年利 年率	年化利率
lipsync	リップシンク 口パク	对口型
fruit	果物 フルーツ	水果
valley	渓谷 バレー	山谷
unnecessary	不要	不必要
unstable	不安定	不稳定
`;
