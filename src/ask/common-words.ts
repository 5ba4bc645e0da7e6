/**
 * Common English words of up to seven letters, and the acronyms of everyday work ("ci", "qa", "pr",
 * "eng"), that a question may hold for what they mean: never
 * read as the short form of an account's name ("not" is no short form of `notifications`, "use" none
 * of `user-profile`, "led" none of `ledger`). Words the reader knows or passes over are guarded apart
 * (vocabulary.ts); these are the ones it leaves unread, so that a question holding them is refused
 * rather than answered for something else.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(
  `
  no not nor nope yes yeah yep none never ever only just even still yet else also
  he she him her his hers who whom whose why when where while whilst
  one ones two few lot lots more most less least many much some any all each every both either neither
  open opened closed close critical crit high higher highest med medium low lower severe severity sev
  risk risky bug bugs issue fail failed failing pass passed error errors warn warning broke broken
  new old big small large tiny huge bad worse worst good best fine ok okay sure true false real
  use used uses user using usage make made take took taken give gave keep kept let put set get got
  see saw seen look show shown tell told ask asked say said know knew think thought want wanted need
  like liked love hate feel felt seem help try tried call called come came go went run ran runs
  do did done does can could will would shall should may might must ought
  act add age ago air arm art bag bar bed bet bit box boy car cat cow cup cut day dog dry ear eat egg
  end eye fan far fat fix fly fun gas gap god gun guy hat hit hot ice ink job joy key kid law lay led
  leg lie lip log man map mat men mix mom net nut odd off oil own pan pay pen per pet pie pin pit pop
  pot pro raw red rid row sad sat sea sec sex shy sir sit six ski sky son spy sum sun tab tag tap tax
  tea ten tie tip toe ton top toy try two van war was way web wet win wit won yes zip
  able area away back base bill body book both call card care case cash cell chat city code cold cost
  crew data date deal deep desk dial diet disk door down draw drop dual duty each earn east easy edge
  else face fact fair fall farm fast fear feed file fill film find fire firm flag flat flow food foot
  form free from fuel full fund game gate gear gift girl goal gold golf gone grow half hall hand hard
  head hear heat held hell here hero hide hill hire hold hole home hope host hour idea into iron item
  join jump jury just king know lack lady lake land last late lead left life lift line link list live
  load loan lock long loss lost luck mail main male mark mass meal mean meat meet menu mile mind mine
  miss mode move name near neck news next nice note once only page pain pair park part past path peak
  pick pipe plan play plot plus poll pool poor port post pull pure push race rain rate read rely rent
  rest rich ride ring rise road rock role roll room root rule rush safe sale salt same save seat seed
  sell send ship shop shot side sign sing site size skin slow snow soft soil sold sole song soon sort
  soul spot star stay step stop such suit sure take talk tall task team tech term test text than that
  them then they thin this thus tidy till time tiny tone tool tour town tree trip true tune turn type
  unit upon vast very view vote wage wait wake walk wall want warm wash wave weak wear week well west
  what wide wife wild wind wine wing wire wise wish with wood word work yard year your zero zone
  about above after again ahead alert alive alone along among angle apple argue aside audit avoid
  basic beach begin being below bench birth black blame blank block blood board brain brand bread
  break brief bring broad brown build built buyer cable carry catch cause chain chair chart cheap
  check chief child civil claim class clean clear clerk click clock cloud coach count court cover
  crash cream crime cross crowd daily dance death delay depth doubt dozen draft drama dream dress
  drink drive early earth eight empty enemy enjoy enter entry equal event exact exist extra faith
  false fault field fifth fight final first flash fleet floor focus force frame fresh front fruit
  funny given glass grand grant grass great green gross group guard guess guest guide happy heart
  heavy horse hotel house human ideal image index inner input issue joint judge knife label large
  later laugh layer learn least leave legal level light limit local loose lucky lunch major march
  match maybe media metal might minor model money month moral motor mouth movie music needs never
  night noise north novel nurse occur ocean offer often order other outer owner paint panel paper
  party peace phase phone photo piece pilot pitch place plain plane plant plate point pound power
  press price pride prime print prior prize proof proud prove queen quick quiet quite radio raise
  range rapid ratio reach ready refer relax reply right river rough round route royal rural scale
  scene scope score sense serve seven shall shape share sharp sheet shelf shell shift shirt shock
  shoot short shown sight since skill sleep slide small smart smile smoke solid solve sorry sound
  south space spare speak speed spend spent split sport staff stage stand start state steam steel
  stick still stock stone store storm story strip study stuff style sugar super sweet table taken
  taste teach thank theme there thick thing think third those three throw tight title today total
  touch tough tower track trade train treat trend trial truck truly trust truth twice under union
  until upper upset urban usual valid value video visit vital voice waste watch water wheel where
  which while white whole whose woman world worry worth would write wrong young youth
  account address against already another anybody anyone anyway because between brother capital
  captain careful central century certain chapter charge citizen climate collect comfort command
  comment company compare complex concept concern conduct confirm connect consist contact contain
  content context control convert correct council counter country couple course cousin created
  culture current dealing decided declare decline default defense deliver density deposit design
  despite develop digital discuss disease display distant economy edition element embrace emotion
  enhance evening evident exactly example explain express extreme failure feature finance foreign
  forever forward freedom general genuine gesture greater healthy hearing heavily herself himself
  history holding honesty however hundred husband illegal imagine improve include initial insight
  instead involve journey justice kitchen largely leading library license limited machine manager
  married massive maximum measure medical meeting mention message million mineral minimum minister
  missing mission mistake mixture morning neither network nothing nowhere nuclear obvious offense
  officer operate opinion organic outcome overall package painful partner passage passion patient
  pattern payment penalty percent perfect perform perhaps picture plastic pointed popular portion
  prepare present prevent primary printer privacy private problem process produce product profile
  program project promise protect protein provide publish purpose quality quarter quickly radical
  reading reality receive recover reflect regular related release remains removal replace request
  require reserve resolve respect respond restore revenue reverse roughly routine running science
  section segment serious service session setting several shelter silence similar society soldier
  someone speaker special station stomach strange stretch student subject success suggest summary
  support suppose surface survive suspect sustain teacher telling tension theatre therapy thought
  through tonight totally tourist towards traffic trouble typical uniform unknown unusual usually
  variety vehicle venture version veteran victory village violent virtual visible waiting walking
  warning wealthy weather website wedding weekend welcome western whether without witness working
  writing written
  ci cd cicd qa pr prs mr mrs ui ux ai db os vm ip dns hr it pm eng dev devs ops sre eod eow tbd tba
  wip poc mvp kpi okr roi sla slo rca fyi asap
  `
    .split(/\s+/)
    .filter(Boolean),
);
