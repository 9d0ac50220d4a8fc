"""Chinese words the query reader (core/query_zh.py) knows, declared as data.

Three closed classes, each read by structure, never a sentence:

- ``FIELD_WORDS``: a Chinese word for a field, with the English keys it may name, in order of
  preference. A word names a key of the records when exactly one of its keys is there — as
  written (``price``), in another style (``unit_price``, ``unitPrice``), as the last word of a
  key (``id`` of ``sensor_id``) or with a unit after it (``price_usd``, ``temperature_c``, see
  ``UNIT_WORDS``). These add to core/fields.GLOSSARY.
- ``CLASS_WORDS``: Chinese words of the query's clause classes (order, comparison, question,
  request, place), each written as the English word(s) of its class.
- ``RECORD_NOUNS``: Chinese nouns that name the records themselves (传感器, 读数), read as the
  English noun "records"; a noun that is a key of the records is a field instead.
"""

from __future__ import annotations

FIELD_WORDS: dict[str, tuple[str, ...]] = {
    # money and amounts
    "价格": ("price",), "价钱": ("price",), "售价": ("price",), "票价": ("price", "fare"),
    "定价": ("price",),
    # readings
    "温度": ("temperature", "temp"), "湿度": ("humidity",), "电量": ("battery",),
    "电池电量": ("battery",), "位置": ("location",), "地点": ("location",),
    "记录时间": ("recorded_at", "recorded", "timestamp"), "时间戳": ("timestamp",),
    "校准": ("calibrated",), "已校准": ("calibrated",), "状态": ("status", "state"),
    # flights
    "航班号": ("flightNo", "flight_no", "flight_number", "flight"), "航空公司": ("airline",),
    "出发地": ("origin",), "始发地": ("origin",), "目的地": ("destination",),
    "起飞时间": ("departure", "departure_time", "departs_at"),
    "出发时间": ("departure", "departure_time", "departs_at"),
    "飞行时间": ("duration", "flight_time"), "飞行时长": ("duration", "flight_time"),
    "剩余座位": ("seatsLeft", "seats_left", "seats_remaining", "seats_available"),
    "剩余座位数": ("seatsLeft", "seats_left", "seats_remaining", "seats_available"),
    "余座": ("seatsLeft", "seats_left", "seats_remaining", "seats_available"),
    "座位": ("seats",), "延误": ("delay",), "延误时间": ("delay",),
    "经停": ("stops",), "经停次数": ("stops",), "中转次数": ("stops",),
    # places: a flag of where a city lies ("不靠海的城市": coastal false)
    "靠海": ("coastal", "isCoastal", "is_coastal"), "沿海": ("coastal", "isCoastal", "is_coastal"),
    "临海": ("coastal", "isCoastal", "is_coastal"),
    # orders
    "加急": ("express", "isExpress", "is_express"),
    # places
    "大洲": ("continent",), "所在大洲": ("continent",),
    # books
    "出版年份": ("publishedYear", "published_year", "year"),
    "出版年": ("publishedYear", "published_year", "year"), "系列": ("series",),
    "出版": ("publishedYear", "published_year", "published"),
    "出版社": ("publisher",), "出版商": ("publisher",),
    # people
    "员工编号": ("employeeId", "employee_id", "id"), "工号": ("employeeId", "employee_id", "id"),
    "全名": ("full_name", "fullName", "name"), "技能": ("skills",),
    "远程": ("isRemote", "remote", "is_remote"), "翻新": ("isRefurbished", "refurbished"),
    "远程办公": ("isRemote", "remote", "is_remote"),
    "远程工作": ("isRemote", "remote", "is_remote"),
    "居家办公": ("isRemote", "remote", "is_remote"),
    "经理": ("manager_id", "manager"),
    "入职": ("hireDate", "hire_date", "hired", "hiredAt", "hired_at", "joined", "start_date"),
    "入职日期": ("hireDate", "hire_date", "hired", "hiredAt", "hired_at", "joined", "start_date"),
    "入职时间": ("hireDate", "hire_date", "hired", "hiredAt", "hired_at", "joined", "start_date"),
    # lettings and rooms
    "租金": ("rent",), "房租": ("rent",), "月租": ("rent", "monthly_rent"),
    "卧室": ("bedrooms",), "卧室数": ("bedrooms",), "家具": ("furnished",),
    "海景": ("sea_view", "seaView"), "阳台": ("balcony", "has_balcony", "hasBalcony"),
    "房间号": ("room_number", "roomNumber", "room"), "每晚价格": ("nightly_rate", "nightlyRate"),
    # repositories
    "星标": ("stars",), "星标数": ("stars",), "许可证": ("license",), "协议": ("license",),
    # shipments, invoices, trains, recipes
    "运单号": ("shipment_id", "shipmentId"), "到期日": ("due_date", "dueDate"),
    "车次": ("train",), "热量": ("calories",), "卡路里": ("calories",),
    "烹饪时间": ("cook_minutes", "cook_time"), "准备时间": ("prep_minutes", "prep_time"),
    "菜名": ("recipe_name", "dish", "name"), "奖学金": ("scholarship",),
    # issues and tasks
    "评论数": ("comments", "comment_count", "comments_count"),
    "评论": ("comments", "comment_count", "comments_count"),
    "标签": ("labels", "tags"), "里程碑": ("milestone",), "关闭时间": ("closed_at", "closed"),
    "指派人": ("assignee",), "负责人": ("owner", "assignee"), "编号": ("id", "number"),
    # a verb whose object is the field's value ("分配给 rwu 的": assignee rwu)
    "分配给": ("assignee",), "指派给": ("assignee",),
}  # fmt: skip

# Words that may end a key after the field's own words: its unit (price_usd, temperature_c,
# duration_min, battery_pct). A field word names such a key as it names the key without it.
UNIT_WORDS = frozenset(
    {
        "usd", "eur", "gbp", "cny", "rmb", "jpy", "c", "f", "k", "min", "mins", "minutes",
        "sec", "secs", "seconds", "s", "ms", "h", "hr", "hrs", "hours", "days", "pct",
        "percent", "kg", "g", "lb", "lbs", "km", "m", "cm", "mm", "mb", "gb", "kb",
    }
)  # fmt: skip

# Chinese words for values the records hold in English ("关闭的 issue": state closed), each with
# the English values it may stand for. A word is read as the one of its values that is a text
# value of the records (the query frame then finds the one field holding it); none or two of
# them there, and the word is no value. Only words with one meaning are listed (延误 is also
# the field delay; 正常 is "ok" or "normal").
VALUE_WORDS: dict[str, tuple[str, ...]] = {
    "关闭": ("closed",), "已关闭": ("closed",), "关掉": ("closed",),
    "打开": ("open",), "开放": ("open",), "开启": ("open",),
    "已完成": ("done", "completed", "complete"), "完成": ("done", "completed", "complete"),
    "进行中": ("in progress", "in_progress", "ongoing"),
    "待处理": ("pending",), "已取消": ("cancelled", "canceled"), "取消": ("cancelled", "canceled"),
    "已发货": ("shipped",), "已送达": ("delivered",), "已付款": ("paid",),
    "准点": ("on time", "on_time"), "准时": ("on time", "on_time"),
    "警告": ("warning",), "离线": ("offline",), "在线": ("online",),
    # the continents (a closed class), as the records write them in English
    "亚洲": ("Asia",), "欧洲": ("Europe",), "非洲": ("Africa",), "大洋洲": ("Oceania",),
    "南美洲": ("South America",), "南美": ("South America",), "北美洲": ("North America",),
    "北美": ("North America",), "南极洲": ("Antarctica",),
}  # fmt: skip

# Units said after a number ("延误超过30分钟", "零度以下", "100元以上"): each with the unit
# words a key may end with (delay_minutes, temperature_c, price_cny) and the field words of
# the keys that hold it when the key says no unit (a price in 元, a temperature in 度). A unit
# is read only of the field the clause names before the number, when the key ends with one
# of its unit words, or says no unit and is one of its fields; anything else falls back.
_YUAN = frozenset({"cny", "rmb", "yuan"})
_MONEY = frozenset({"price", "cost", "fee", "amount", "fare", "salary", "pay", "total"})
NUMBER_UNITS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "分钟": (frozenset({"min", "mins", "minute", "minutes"}), frozenset()),
    "小时": (frozenset({"h", "hr", "hrs", "hour", "hours"}), frozenset()),
    "秒": (frozenset({"s", "sec", "secs", "second", "seconds"}), frozenset()),
    "天": (frozenset({"day", "days"}), frozenset()),
    "度": (frozenset({"c", "celsius"}), frozenset({"temperature", "temp"})),
    "摄氏度": (frozenset({"c", "celsius"}), frozenset({"temperature", "temp"})),
    "元": (_YUAN, _MONEY),
    "块钱": (_YUAN, _MONEY),
    "块": (_YUAN, _MONEY),
    "美元": (frozenset({"usd"}), frozenset()),
    "欧元": (frozenset({"eur"}), frozenset()),
    "公斤": (frozenset({"kg"}), frozenset({"weight"})),
    "千克": (frozenset({"kg"}), frozenset({"weight"})),
    "公里": (frozenset({"km"}), frozenset({"distance"})),
    "页": (frozenset({"page", "pages"}), frozenset({"pages", "page"})),
}  # fmt: skip

CLASS_WORDS: dict[str, str] = {
    # points in time compared ("早于2015年", "晚于3月")
    "早于": " before ", "晚于": " after ",
    "从早到晚": " from oldest to newest ", "由早到晚": " from oldest to newest ",
    "从晚到早": " from newest to oldest ", "由晚到早": " from newest to oldest ",
    # requests ("告诉我…", "…列出来")
    "告诉我": " give ", "列出来": " give ", "找出来": " give ", "挑出来": " give ",
    "查一下": " give ", "查询": " give ", "查找": " give ", "查看": " give ", "看看": " give ",
    "看一下": " give ", "帮我查": " give ",
    # computing the value asked for ("计算湿度的平均值", "求湿度的最大值"): the aggregate says it
    "计算": " ", "计算一下": " ", "算一下": " ", "算出": " ", "求出": " ", "求": " ",
    # places a record goes to ("飞往 JFK 的航班")
    "飞往": " to ", "飞去": " to ", "前往": " to ", "开往": " to ", "去往": " to ",
    # in stock / out of stock (a flag in_stock, inStock)
    "有库存": " in stock ", "有货": " in stock ", "在售": " in stock ",
    "缺货": " out of stock ", "没货": " out of stock ", "无库存": " out of stock ",
    "没有库存": " out of stock ",
    # already ("已经校准的"); 过 after a field word is read by the reader ("校准过的")
    "已经": " ",
    # where the records live or work, before a value ("住在 Dublin 的": the one field holding it)
    "住在": " live in ", "居住在": " live in ", "位于": " located in ",
    # not yet ("还没关闭的": not closed), before a value word or a flag
    "还没": " not ", "还没有": " not ", "尚未": " not ", "还未": " not ", "未": " not ",
    # the answer's shape in JSON's words ("用JSON对象表示", "用JSON数组"): read as "as a JSON
    # object", which adds nothing when the answer has that shape
    "对象表示": " object ", "数组表示": " array ", "对象": " object ", "列表": " list ",
    # now ("目前在职的员工"): the data is as it is now, a word that changes nothing
    "目前": " ", "现在": " ", "当前": " ", "眼下": " ",
    # the value of an aggregate ("湿度的平均值", "价格的最大值")
    "平均值": " average ", "平均数": " average ", "最大值": " top ", "最小值": " bottom ",
}  # fmt: skip

# "哪本", "哪一班", "哪台": which, with a measure word (a closed class).
MEASURE_WORDS = "个本班架台只条家部款位名件辆张篇首项次场所座趟道间"

RECORD_NOUNS: dict[str, str] = {
    "传感器": " records ", "读数": " records ", "设备": " records ", "书籍": " books ",
    "图书": " books ", "工单": " records ", "任务": " tasks ", "客户": " customers ",
    "顾客": " customers ", "电影": " movies ", "歌曲": " songs ", "公司": " companies ",
    # lettings, repositories, consignments, invoices, dishes, trains
    "房源": " records ", "房间": " records ", "仓库": " records ", "运单": " records ",
    "发票": " invoices ", "菜": " records ", "菜品": " records ", "车": " records ",
    "列车": " records ", "门店": " records ",
}  # fmt: skip
