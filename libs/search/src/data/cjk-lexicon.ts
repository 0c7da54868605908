/**
 * Japanese and Chinese renderings of the English words tool catalogs use most (`cross-lingual.ts`
 * reads it). One line per English word: the word, its Japanese renderings, its Chinese (simplified)
 * renderings, tab-separated; renderings separated by spaces, each at least two characters, matched
 * as substrings of a request (so verb stems such as 送っ are listed beside 送る).
 *
 * How it was made: the 900 words with the highest document frequency over the public catalogs'
 * tool names and descriptions (`../shared/data/catalog-*.jsonl`) were listed, and the ones a
 * person could ask for in a request (actions, objects, qualities; not schema words such as "args",
 * "json" or "endpoint", which are typed in Latin letters anyway) were given their usual renderings
 * by someone who had not seen any query of the evaluation sets. No line comes from a query. Words
 * may be added the same way; each needs a measurement on the frozen parts (BENCHMARKS.md).
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
`;
