/**
 * Name pools of the multicultural innocents set (multicultural.ts), per naming culture.
 *
 * Native-script pools come from @faker-js/faker's locales (MIT): they are plain lists without
 * frequencies. The `head` lists below, written for this bench, put the names that are common in each
 * culture first (from general knowledge of each country's most frequent surnames and given names: Wang,
 * Li, Zhang; Kim, Lee, Park; Nguyễn; Yılmaz; Hosseini, Mohammadi…), so a Zipf weight by rank makes
 * common names common. Romanised pools for the cultures whose faker locale has no Latin spelling
 * (Persian, Arabic, Hebrew, Japanese) are written here too, the way such names are usually spelled
 * in passports and customer books. Nothing here is taken from a sanctions list or from another
 * screening project.
 */

// ---------- Chinese (Han characters; romanised as pinyin per character)
export const ZH_SURNAME_HEAD = '王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 郑 梁 谢 宋 唐 许 韩 冯 邓 曹 彭 曾 肖 田 董 袁 潘 于 蒋 蔡'.split(' ');
export const ZH_GIVEN_HEAD = '伟 芳 娜 秀英 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀兰 霞 平 刚 桂英 斌 浩 鹏 华 红 玲 建华 建国 海燕 晨 宇 欣怡 子轩 梓涵'.split(' ');

// ---------- Korean (Hangul; romanised with the usual surname spellings and RR given names)
export const KO_SURNAME_HEAD = '김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 홍 전 고 문 양 손 배 백 허 유 남'.split(' ');
/** Surname spellings Koreans use in passports (Kim, Lee, Park), not the Revised Romanization. */
export const KO_SURNAME_ROMAN: Record<string, string[]> = {
  김: ['Kim'], 이: ['Lee', 'Yi', 'Rhee'], 박: ['Park', 'Pak'], 최: ['Choi', 'Choe'], 정: ['Jung', 'Jeong', 'Chung'], 강: ['Kang'],
  조: ['Cho', 'Jo'], 윤: ['Yoon', 'Yun'], 장: ['Jang', 'Chang'], 임: ['Lim', 'Im'], 한: ['Han'], 오: ['Oh'], 서: ['Seo', 'Suh'],
  신: ['Shin', 'Sin'], 권: ['Kwon'], 황: ['Hwang'], 안: ['Ahn', 'An'], 송: ['Song'], 류: ['Ryu', 'Yoo'], 홍: ['Hong'],
  전: ['Jeon', 'Chun'], 고: ['Ko', 'Go'], 문: ['Moon', 'Mun'], 양: ['Yang'], 손: ['Son', 'Sohn'], 배: ['Bae'], 백: ['Baek', 'Paik'],
  허: ['Heo', 'Hur'], 유: ['Yoo', 'Yu'], 남: ['Nam'],
};
export const KO_GIVEN_HEAD = '민준 서준 도윤 예준 시우 지호 민서 서연 서윤 지우 서현 하은 지민 현우 정민 종민 영수 영희 민수 지훈 성민 은지 수빈 지원 동현'.split(' ');

// ---------- Japanese: kanji with the Hepburn spelling (faker's ja pools have no readings)
export const JA_SURNAMES: [string, string][] = [
  ['佐藤', 'Sato'], ['鈴木', 'Suzuki'], ['高橋', 'Takahashi'], ['田中', 'Tanaka'], ['渡辺', 'Watanabe'], ['伊藤', 'Ito'],
  ['山本', 'Yamamoto'], ['中村', 'Nakamura'], ['小林', 'Kobayashi'], ['加藤', 'Kato'], ['吉田', 'Yoshida'], ['山田', 'Yamada'],
  ['佐々木', 'Sasaki'], ['山口', 'Yamaguchi'], ['松本', 'Matsumoto'], ['井上', 'Inoue'], ['木村', 'Kimura'], ['林', 'Hayashi'],
  ['清水', 'Shimizu'], ['山崎', 'Yamazaki'], ['森', 'Mori'], ['阿部', 'Abe'], ['池田', 'Ikeda'], ['橋本', 'Hashimoto'],
  ['山下', 'Yamashita'], ['石川', 'Ishikawa'], ['中島', 'Nakajima'], ['前田', 'Maeda'], ['藤田', 'Fujita'], ['小川', 'Ogawa'],
  ['後藤', 'Goto'], ['岡田', 'Okada'], ['長谷川', 'Hasegawa'], ['村上', 'Murakami'], ['近藤', 'Kondo'], ['石井', 'Ishii'],
  ['斎藤', 'Saito'], ['坂本', 'Sakamoto'], ['遠藤', 'Endo'], ['青木', 'Aoki'], ['藤井', 'Fujii'], ['西村', 'Nishimura'],
  ['福田', 'Fukuda'], ['太田', 'Ota'], ['三浦', 'Miura'], ['藤原', 'Fujiwara'], ['岡本', 'Okamoto'], ['松田', 'Matsuda'],
  ['中川', 'Nakagawa'], ['中野', 'Nakano'], ['原田', 'Harada'], ['小野', 'Ono'], ['田村', 'Tamura'], ['竹内', 'Takeuchi'],
];
export const JA_GIVEN: [string, string][] = [
  ['博', 'Hiroshi'], ['隆', 'Takashi'], ['明', 'Akira'], ['健二', 'Kenji'], ['陽翔', 'Haruto'], ['蒼太', 'Sota'], ['悠斗', 'Yuto'],
  ['蓮', 'Ren'], ['大輝', 'Daiki'], ['拓海', 'Takumi'], ['一輝', 'Kazuki'], ['翔太', 'Shota'], ['涼太', 'Ryota'], ['悠真', 'Yuma'],
  ['誠', 'Makoto'], ['聡', 'Satoshi'], ['直樹', 'Naoki'], ['健太', 'Kenta'], ['一郎', 'Ichiro'], ['浩', 'Hiroshi'], ['修', 'Osamu'],
  ['剛', 'Tsuyoshi'], ['学', 'Manabu'], ['実', 'Minoru'], ['茂', 'Shigeru'], ['結衣', 'Yui'], ['葵', 'Aoi'], ['陽菜', 'Hina'],
  ['結菜', 'Yuna'], ['さくら', 'Sakura'], ['美咲', 'Misaki'], ['彩花', 'Ayaka'], ['遥', 'Haruka'], ['洋子', 'Yoko'], ['恵子', 'Keiko'],
  ['直子', 'Naoko'], ['智子', 'Tomoko'], ['由美', 'Yumi'], ['恵美', 'Emi'], ['舞', 'Mai'], ['凛', 'Rin'], ['澪', 'Mio'],
  ['美優', 'Miyu'], ['七海', 'Nanami'], ['香織', 'Kaori'], ['裕子', 'Yuko'], ['久美子', 'Kumiko'], ['真由美', 'Mayumi'],
];

// ---------- Russian (Cyrillic from faker ru; head first)
export const RU_SURNAME_HEAD = 'Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков Алексеев Лебедев Семёнов Егоров Павлов Козлов Степанов Николаев'.split(' ');
export const RU_MALE_HEAD = 'Александр Сергей Дмитрий Андрей Алексей Владимир Михаил Иван Николай Евгений Максим Юрий Игорь Олег Павел'.split(' ');
export const RU_FEMALE_HEAD = 'Елена Ольга Наталья Татьяна Ирина Анна Светлана Мария Екатерина Юлия Марина Галина Людмила Анастасия'.split(' ');

// ---------- Persian
export const FA_SURNAME_HEAD = 'محمدی حسینی احمدی رضایی موسوی کریمی جعفری رحیمی هاشمی کاظمی قاسمی صادقی مرادی ابراهیمی حیدری زمانی نادری رستمی امینی باقری'.split(' ');
export const FA_GIVEN_HEAD = 'محمد علی حسین رضا مهدی امیر حسن زهرا فاطمه مریم سارا نرگس لیلا مهسا شیرین اسرا'.split(' ');
export const FA_SURNAMES_ROMAN = (
  'Hosseini Ahmadi Mohammadi Rezaei Mousavi Jafari Karimi Rahimi Hashemi Kazemi Ghasemi Sadeghi Moradi Hosseinzadeh Ebrahimi ' +
  'Heidari Zamani Naderi Tehrani Esfahani Shirazi Rostami Amini Bagheri Azizi Mahmoudi Akbari Nouri Salehi Mirzaei Abbasi ' +
  'Ghorbani Asadi Yazdani Sharifi Farahani Soltani Najafi Alavi Tavakoli Safavi Rahmani Ansari Jalali Khosravi Habibi Eskandari'
).split(' ');
export const FA_GIVEN_ROMAN = (
  'Mohammad Ali Hossein Reza Mehdi Amir Hassan Mohsen Saeed Hamid Majid Ahmad Javad Morteza Abbas Mostafa Davood Behrouz Babak ' +
  'Farhad Kourosh Arash Parviz Dariush Kamran Navid Peyman Pouya Zahra Fatemeh Maryam Sara Narges Leila Mahsa Shirin Parisa ' +
  'Elham Niloufar Nasrin Azadeh Roya Somayeh Esra Atefeh Mina Negar Samira Shadi Golnaz Parvaneh'
).split(' ');

// ---------- Arabic
export const AR_SURNAME_HEAD = 'الأحمد الحسن العلي المصري حداد خليل صالح ناصر حمدان منصور القحطاني العتيبي الغامدي الزهراني الشهري الدوسري الحربي المطيري الشمري التميمي'.split(' ');
export const AR_GIVEN_HEAD = 'محمد أحمد علي عمر يوسف خالد حسن حسين إبراهيم عبدالله محمود مصطفى فاطمة عائشة مريم نور ليلى هدى'.split(' ');
export const AR_SURNAMES_ROMAN = (
  'Al-Masri Haddad Khalil Saleh Nasser Hamdan Al-Ahmad Mansour Abdallah Qasim Al-Hashimi Al-Otaibi Al-Qahtani Al-Ghamdi ' +
  'Al-Zahrani Al-Shehri Al-Dosari Al-Harbi Al-Mutairi Al-Shammari Al-Tamimi Al-Amri Farouk Suleiman Barakat Darwish Khoury ' +
  'Nassar Aziz Younis Rahman Hassan Hussein Ibrahim Youssef Mahmoud Othman Hijazi Shaheen Sabbagh Jaber Awad Zaki Bakr'
).split(' ');
export const AR_GIVEN_ROMAN = (
  'Mohammed Ahmed Ali Omar Youssef Khaled Hassan Hussein Ibrahim Abdullah Mahmoud Mustafa Saleh Tariq Karim Nasser Faisal ' +
  'Hamza Bilal Samir Walid Rami Ziad Majed Fahad Sultan Salem Adel Jamal Yasser Fatima Aisha Mariam Noor Layla Huda Amal ' +
  'Rania Salma Hana Dina Yasmin Reem Lina Sara Nadia Maha Samira Zainab Asma'
).split(' ');
export const AR_MALE_ROMAN = AR_GIVEN_ROMAN.slice(0, AR_GIVEN_ROMAN.indexOf('Fatima'));

// ---------- Hebrew
export const HE_SURNAME_HEAD = 'כהן לוי מזרחי פרץ ביטון דהן אברהם פרידמן מלכה אזולאי כץ יוסף דוד עמר אוחיון חדד גבאי'.split(' ');
export const HE_SURNAMES_ROMAN = (
  'Cohen Levi Mizrahi Peretz Biton Dahan Avraham Friedman Malka Azoulay Katz Yosef David Amar Ohayon Hadad Gabay Shapiro Klein ' +
  'Goldberg Rosenberg Levy Shalom Carmi Segal Weiss Sasson Golan Ben-David Ben-Ami Ashkenazi Sharabi Elbaz Vaknin Tzur Navon'
).split(' ');
export const HE_GIVEN_ROMAN = (
  'Noa Tamar Yael Maya Shira Michal Avigail Talia Adi Hila Yosef David Moshe Avraham Daniel Ariel Itai Noam Omer Eitan Yonatan ' +
  'Uri Amit Tomer Gal Lior Ron Yair Nir Eyal Ofir Roni Dana Orly Efrat Sigal Yitzhak Shlomo Yaakov Meir'
).split(' ');

// ---------- Greek
export const EL_SURNAME_HEAD = 'Παπαδόπουλος Παπαδοπούλου Βλάχος Αγγελόπουλος Νικολαΐδης Γεωργίου Πετρίδης Αθανασίου Δημητρίου Παπαγεωργίου'.split(' ');
export const EL_GIVEN_HEAD = 'Γεώργιος Ιωάννης Κωνσταντίνος Δημήτριος Νικόλαος Παναγιώτης Μαρία Ελένη Αικατερίνη Βασιλική Σοφία'.split(' ');

// ---------- Turkish
export const TR_SURNAME_HEAD = 'Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin Kara Koç Kurt Özkan Şimşek'.split(' ');
export const TR_GIVEN_HEAD = 'Mehmet Mustafa Ahmet Ali Hüseyin Hasan İbrahim İsmail Murat Emre Fatma Ayşe Emine Hatice Zeynep Elif Meryem Şerife'.split(' ');

// ---------- Vietnamese (family name first); weights roughly as the country's surname shares
export const VI_SURNAMES: [string, number][] = [
  ['Nguyễn', 38], ['Trần', 11], ['Lê', 9.5], ['Phạm', 7.1], ['Hoàng', 4], ['Huỳnh', 3], ['Phan', 4.5], ['Vũ', 2.5], ['Võ', 2.5],
  ['Đặng', 2.1], ['Bùi', 2], ['Đỗ', 1.4], ['Hồ', 1.3], ['Ngô', 1.3], ['Dương', 1], ['Lý', 0.5], ['Trương', 0.5], ['Đinh', 0.5],
  ['Lâm', 0.4], ['Mai', 0.3], ['Tô', 0.3], ['Trịnh', 0.3], ['Đoàn', 0.3], ['Cao', 0.3], ['Lương', 0.2],
];
export const VI_MIDDLE = 'Văn Thị Văn Thị Đức Minh Quang Ngọc Thanh Hữu Xuân Hoài'.split(' ');

// ---------- Spanish / Latin American
export const ES_SURNAME_HEAD = 'García Hernández Martínez López González Rodríguez Pérez Sánchez Ramírez Flores Gómez Torres Díaz Vázquez Cruz Morales Reyes Gutiérrez Ortiz Ramos Jiménez Ruiz Mendoza Castillo Romero'.split(' ');
export const ES_GIVEN_HEAD = 'José Juan Luis Carlos Jorge Miguel Francisco Jesús Antonio Alejandro María Guadalupe Ana Rosa Juana Margarita Verónica Patricia'.split(' ');

// ---------- Indian (faker en_IN is romanised only)
export const IN_SURNAME_HEAD = 'Kumar Singh Sharma Patel Gupta Shah Reddy Rao Das Khan Iyer Nair Joshi Mehta Verma Yadav Mishra Pillai Chopra Jain'.split(' ');
export const IN_GIVEN_HEAD = 'Rahul Amit Rajesh Sunil Anil Vijay Suresh Ramesh Sanjay Deepak Priya Pooja Neha Anjali Sunita Kavita Lakshmi Divya'.split(' ');
